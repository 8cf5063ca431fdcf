// A server process started by a test launcher, stopped by its PID within a bounded time.
public import Foundation

/// A child process that a launcher started (nginx, gunicorn). It is stopped with SIGTERM, and
/// SIGKILL if it has not exited within the grace period, so no test leaves a server behind.
public final class ChildProcess: Sendable {
    /// The process identifier, for `kill` from scripts as a backstop.
    public var pid: Int32 { process.pid }
    /// What was run, for error messages.
    public var commandLine: String { process.commandLine }
    private let process: SpawnedProcess

    /// Starts `executable` with `arguments`, stdout and stderr appended to `logFile`.
    /// - Throws: `TestSupportError.launchFailed` when the executable cannot be started.
    public init(executable: String, arguments: [String], workingDirectory: URL, logFile: URL) throws {
        let log = open(logFile.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else {
            throw TestSupportError.launchFailed(
                executable, reason: "cannot open \(logFile.path): \(String(cString: strerror(errno)))")
        }
        defer { close(log) }
        process = try SpawnedProcess(
            executable: executable, arguments: arguments, workingDirectory: workingDirectory,
            standardOutput: log, standardError: log)
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM, waits up to `grace` for the exit, then SIGKILLs the process.
    public func stop(grace: Duration = .seconds(5)) {
        process.stop(grace: grace)
    }

    deinit {
        stop(grace: .seconds(2))
    }
}

/// Runs a command to completion (bounded by `timeout`) and returns its standard output.
/// - Throws: `TestSupportError.commandFailed` with the command's output when it exits non-zero
///   or runs past the timeout.
@discardableResult
public func runCommand(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, timeout: Duration = .seconds(60)
) throws -> String {
    let (output, status) = try runCommandCapturingStatus(executable, arguments, in: directory, timeout: timeout)
    let text = String(decoding: output, as: UTF8.self)
    guard status == 0 else {
        throw TestSupportError.commandFailed(([executable] + arguments).joined(separator: " "), output: text)
    }
    return text
}
