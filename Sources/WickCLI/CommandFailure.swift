// Why the command stops: curl's exit code and the message curl would print for it.

/// A failure of the command: the exit code (curl's for the same failure) and a message for
/// standard error, printed as `wick: (CODE) MESSAGE` unless `-s` without `-S`.
public struct CommandFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The process's exit status.
    public let code: CurlExitCode
    /// What went wrong, for people.
    public let message: String

    /// A failure with `code` and `message`.
    public init(_ code: CurlExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A mistake on the command line (exit 2, as curl).
    public static func usage(_ message: String) -> CommandFailure {
        CommandFailure(.failedInitialization, message)
    }

    /// `(22) The requested URL returned error: 404`; a command-line mistake is the message
    /// alone, as curl prints it (`option --foo: is unknown`).
    public var description: String {
        code == .failedInitialization ? message : "(\(code.rawValue)) \(message)"
    }
}
