// Counting this process's connected sockets to one local port: leak checks that ignore the
// descriptors other tests, running in parallel in the same process, open and close.
import Foundation

/// This process's TCP sockets, as `/proc/self/fd` and `/proc/net/tcp{,6}` show them.
public enum OpenSockets {
    /// How many of this process's TCP sockets have `port` as their remote port: the client ends
    /// of connections to a local server on that port. A leak check on that number is exact
    /// whatever else the process does meanwhile.
    public static func connected(toPort port: Int) -> Int {
        var inodes = Set<String>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 9, let remotePort = columns[2].split(separator: ":").last,
                    Int(remotePort, radix: 16) == port
                else { continue }
                inodes.insert(String(columns[9]))
            }
        }
        return descriptorLinks().count { target in
            target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst("socket:[".count).dropLast()))
        }
    }

    /// Where each of this process's descriptors points (`socket:[inode]`, a path, ...).
    private static func descriptorLinks() -> [String] {
        var links: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        for name in directoryNames("/proc/self/fd") {
            // SAFETY: the buffer is a local array of 256 CChars, so its base address is non-nil and
            // ours alone; readlink writes at most count - 1 bytes into it and returns that count, which
            // bounds the slice read below.
            let length = buffer.withUnsafeMutableBufferPointer {
                readlink("/proc/self/fd/\(name)", $0.baseAddress!, $0.count - 1)
            }
            guard length > 0 else { continue }
            links.append(String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return links
    }
}
