// The test nginx seen from the benchmark: its processes pinned to a CPU, its count of open connections.
import CBenchSupport
import Foundation
import Glibc
import WickTestSupport

/// nginx's master and worker processes, and its `stub_status`.
enum NginxProcesses {
    static let taskset = "/usr/bin/taskset"

    /// The master `pid` and its children (the worker), from /proc.
    static func processes(master pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let children = entries.compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After "pid (comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
        return [pid] + children
    }

    /// Pins nginx's processes to `cpu` with util-linux's taskset; returns the pinned PIDs, or nil
    /// when taskset is missing.
    /// - Throws: `TestSupportError.commandFailed` if taskset refuses.
    static func pin(master pid: Int32, cpu: Int) throws -> [Int32]? {
        guard FileManager.default.isExecutableFile(atPath: taskset) else { return nil }
        let pids = processes(master: pid)
        for pid in pids { try runCommand(taskset, ["-p", "-c", String(cpu), String(pid)]) }
        return pids
    }

    /// CPU time `pid` has run, in nanoseconds (the first field of /proc/PID/schedstat); nil if
    /// the file cannot be read.
    static func cpuNanoseconds(_ pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { UInt64($0) }
    }

    /// "Active connections" from nginx's stub_status at 127.0.0.1:`port`/status (this request
    /// included).
    /// - Throws: `SocketError`, or `BenchError` if the answer has no count.
    static func activeConnections(httpPort port: Int) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", errno: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        // SAFETY: `address` is a sockaddr_in of the length given.
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketError(call: "connect", errno: errno) }
        let request = Array("GET /status HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else {
            throw SocketError(call: "send", errno: errno)
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            answer += chunk[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("Active connections:") }),
            let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchError("nginx stub_status: no connection count in \(text.prefix(200))") }
        return count
    }
}
