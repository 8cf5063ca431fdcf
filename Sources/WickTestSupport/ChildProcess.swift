// A server process started by a test launcher, stopped by its PID within a bounded time.
public import Foundation

/// A child process that a launcher started (nginx, gunicorn). It is stopped with SIGTERM, and
/// SIGKILL if it has not exited within the grace period, so no test leaves a server behind.
public final class ChildProcess: Sendable {
    /// The process identifier, for `kill` from scripts as a backstop.
    public let pid: Int32
    /// What was run, for error messages.
    public let commandLine: String
    private let process: Process  // Sendable in swift-corelibs-foundation; touched only via its thread-safe API.

    /// Starts `executable` with `arguments`, stdout and stderr appended to `logFile`.
    /// - Throws: `TestSupportError.launchFailed` when the executable cannot be started.
    public init(executable: String, arguments: [String], workingDirectory: URL, logFile: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        self.commandLine = ([executable] + arguments).joined(separator: " ")
        do {
            try ProcessEnvironment.withLock { try process.run() }
        } catch {
            throw TestSupportError.launchFailed(commandLine, reason: "\(error)")
        }
        self.process = process
        self.pid = process.processIdentifier
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM, waits up to `grace` for the exit, then SIGKILLs the process.
    public func stop(grace: Duration = .seconds(5)) {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while process.isRunning && ContinuousClock.now < deadline {
            usleep(20_000)
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try ProcessEnvironment.withLock { try process.run() }
    // Read before waiting so a chatty command cannot block on a full pipe.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
    let text = String(decoding: data, as: UTF8.self)
    let commandLine = ([executable] + arguments).joined(separator: " ")
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        throw TestSupportError.commandFailed(commandLine, output: "timed out after \(timeout)\n" + text)
    }
    guard process.terminationStatus == 0 else {
        throw TestSupportError.commandFailed(commandLine, output: text)
    }
    return text
}
