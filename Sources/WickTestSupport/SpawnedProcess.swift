// Starting child processes from a test process that holds a thousand descriptors: posix_spawn
// with closefrom, instead of Foundation's Process.
public import Foundation
import CWickSystem

/// A child process started with `posix_spawn`. The child gets `/dev/null` or the given
/// descriptors as its standard streams and no other descriptor of ours (`closefrom(3)` in the
/// child), so a pipe one test opened never leaks into another test's child and delays its EOF.
///
/// Foundation's `Process` is not used in the tests: to close inherited descriptors on Linux it
/// lists `/proc/self/fd` and copies each entry's whole 256-byte `d_name` out of `readdir`'s buffer,
/// which reads past that buffer's end when an entry sits near it; with a thousand descriptors
/// open (the pool tests) that crashed the test process with SIGSEGV in a CI run.
public final class SpawnedProcess: @unchecked Sendable {  // `reapedStatus` only under `lock`.
    /// The process identifier.
    public let pid: Int32
    /// What was run, for error messages.
    public let commandLine: String
    private let lock = NSLock()
    /// The wait status once the child has been reaped.
    private var reapedStatus: Int32?

    /// Starts `executable` with `arguments` (the program name is added as `argv[0]`).
    /// `standardOutput` and `standardError` are descriptors the child gets as 1 and 2 (`nil`:
    /// `/dev/null`); standard input is always `/dev/null`. The environment is this process's,
    /// copied under `ProcessEnvironment`'s lock.
    /// - Throws: `TestSupportError.launchFailed` when `posix_spawn` fails (no such executable, a
    ///   working directory that does not exist, ...).
    public init(
        executable: String, arguments: [String], workingDirectory: URL? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws {
        let commandLine = ([executable] + arguments).joined(separator: " ")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, source) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        cwick_spawn_add_closefrom(&actions, 3)
        if let workingDirectory {
            cwick_spawn_add_chdir(&actions, workingDirectory.path)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, as Process did: a Ctrl-C to the test run is not also the child's.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: Int32 = 0
        let result = ProcessEnvironment.withLock {
            posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        guard result == 0 else {
            throw TestSupportError.launchFailed(commandLine, reason: String(cString: strerror(result)))
        }
        self.pid = pid
        self.commandLine = commandLine
    }

    /// The exit code, or 128 plus the signal number when a signal ended the child; `nil` while it
    /// runs. Reaps the child the first time it sees it has ended.
    public var exitStatus: Int32? {
        lock.lock()
        defer { lock.unlock() }
        if reapedStatus == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { reapedStatus = status }
        }
        return reapedStatus.map(Self.exitStatus(fromWaitStatus:))
    }

    /// Whether the child is still running.
    public var isRunning: Bool { exitStatus == nil }

    /// Waits up to `timeout` for the child to end (polling every 5 ms); returns its exit status,
    /// or `nil` if it is still running.
    @discardableResult
    public func wait(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = exitStatus { return status }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Sends SIGTERM, waits up to `grace`, then SIGKILLs the child and reaps it.
    public func stop(grace: Duration) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if wait(timeout: grace) == nil {
            kill(pid, SIGKILL)
            wait(timeout: .seconds(10))
        }
    }

    private static func exitStatus(fromWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// Runs a command to completion (bounded by `timeout`, then SIGKILLed) and returns what it wrote
/// to standard output (and standard error, unless `discardingStandardError`) with its exit status.
/// - Throws: `TestSupportError.launchFailed` when it cannot start, `TestSupportError.commandFailed`
///   when it runs past the timeout.
public func runCommandCapturingStatus(
    _ executable: String, _ arguments: [String], in directory: URL? = nil,
    discardingStandardError: Bool = false, timeout: Duration = .seconds(60)
) throws -> (output: [UInt8], status: Int32) {
    var ends: [Int32] = [-1, -1]
    // Close-on-exec is set just after `pipe`; a spawn in between cannot inherit the ends, since
    // every spawn here closes descriptors from 3 on in the child.
    guard pipe(&ends) == 0 else {
        throw TestSupportError.launchFailed(executable, reason: "pipe: \(String(cString: strerror(errno)))")
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { close(readEnd) }
    let process: SpawnedProcess
    do {
        process = try SpawnedProcess(
            executable: executable, arguments: arguments, workingDirectory: directory,
            standardOutput: writeEnd, standardError: discardingStandardError ? nil : writeEnd)
        close(writeEnd)
    } catch {
        close(writeEnd)
        throw error
    }
    // Read until EOF (every writer gone) or the deadline, so a chatty command never blocks on a
    // full pipe and a hung one never blocks us.
    let deadline = ContinuousClock.now + timeout
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    reading: while true {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { break }
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 1000))
        guard poll(&descriptor, 1, milliseconds) >= 0 || errno == EINTR else { break }
        guard descriptor.revents != 0 else { continue }
        // SAFETY: `chunk` is a local array of 16 KiB, so its buffer is non-empty and ours alone; read
        // writes at most $0.count bytes into it and returns that many, which bounds the slice appended
        // below.
        let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        switch count {
        case 0: break reading
        case ..<0 where errno == EINTR || errno == EAGAIN: continue
        case ..<0: break reading
        default: output += chunk[0..<count]
        }
    }
    let remaining = max(deadline - ContinuousClock.now, .milliseconds(100))
    guard let status = process.wait(timeout: remaining) else {
        process.stop(grace: .zero)
        throw TestSupportError.commandFailed(
            process.commandLine, output: "timed out after \(timeout)\n" + String(decoding: output, as: UTF8.self))
    }
    return (output, status)
}
