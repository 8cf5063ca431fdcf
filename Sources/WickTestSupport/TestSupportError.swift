// What can go wrong while starting test servers or playing a fault script.

/// An error from the test-support launchers and servers, with what a person needs to fix it.
public enum TestSupportError: Error, CustomStringConvertible {
    /// An executable could not be started.
    case launchFailed(String, reason: String)
    /// A command exited non-zero or timed out; `output` is what it printed.
    case commandFailed(String, output: String)
    /// A server did not accept connections in time; `log` is the tail of its log.
    case serverNotReady(String, log: String)
    /// A server the test needs was not started (the environment variable is unset).
    case serverNotConfigured(String, variable: String)
    /// A socket call failed while setting up a test server.
    case socket(String, errno: Int32)

    /// A readable account of the failure.
    public var description: String {
        switch self {
        case .launchFailed(let command, let reason):
            "could not start `\(command)`: \(reason) (run Scripts/setup to install the test servers)"
        case .commandFailed(let command, let output):
            "`\(command)` failed:\n\(output)"
        case .serverNotReady(let name, let log):
            "\(name) did not accept connections in time; its log ends with:\n\(log)"
        case .serverNotConfigured(let name, let variable):
            "\(name) is not running for this test run (\(variable) is unset): run Scripts/test, which starts it"
        case .socket(let call, let errno):
            "\(call) failed with errno \(errno)"
        }
    }
}
