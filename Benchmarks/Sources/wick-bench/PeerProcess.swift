// A peer as a child process (wick-bench-peers, wick-bench-openapi), driven one command at a time.
import Foundation

/// A running peer (`wick-bench-peers`, `wick-bench-openapi`): commands go to its stdin, each answer is one line on its stdout
/// (`ok VALUE` or `error MESSAGE`). It inherits this thread's CPU affinity.
final class PeerProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []
    /// The executable's file name, for errors.
    private var name: String { process.executableURL?.lastPathComponent ?? "peer" }

    /// Starts `executable BASE_URL CA_FILE`.
    /// - Throws: what `Process.run` throws.
    convenience init(executable: String, baseURL: String, caFile: String) throws {
        try self.init(executable: executable, arguments: [baseURL, caFile])
    }

    /// Starts `executable` with `arguments` (wick-bench-openapi takes the server URL alone).
    /// - Throws: what `Process.run` throws.
    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Sends `command` and returns the answer's values.
    /// - Throws: `BenchError` with the peer's message, or if it exited.
    @discardableResult
    func send(_ command: String) throws -> [UInt64] {
        let line = Data((command + "\n").utf8)
        try input.fileHandleForWriting.write(contentsOf: line)
        let answer = try readLine()
        let words = answer.split(separator: " ")
        let values = words.dropFirst().compactMap { UInt64($0) }
        guard words.first == "ok", !values.isEmpty, values.count == words.count - 1 else {
            throw BenchError("\(name), \(command): \(answer)")
        }
        return values
    }

    private func readLine() throws -> String {
        let fd = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { throw BenchError("\(name) exited") }
            pending += chunk[..<count]
        }
    }

    /// Asks the peer to quit and waits (up to 10 s) before killing it.
    func stop() {
        try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while process.isRunning && monotonicNanoseconds() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
