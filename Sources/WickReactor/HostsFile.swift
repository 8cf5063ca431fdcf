// Whether /etc/hosts names a host: such a name is looked up in one getaddrinfo call for both
// families, because separate per-family calls would change what /etc/hosts means.
//
// Why: glibc's getaddrinfo stops at the first NSS source that knows a name ("hosts: files dns"),
// so with AF_UNSPEC a name /etc/hosts lists gets exactly the addresses listed there. An AF_INET6
// call for a name listed with IPv4 addresses only falls through to DNS instead: it costs a
// network round trip (75 ms for `localhost` on a machine without a `::1 localhost` line), leaks
// a local name to the DNS server, and may return an IPv6 address that the file never meant the
// name to have, which Happy Eyeballs would then prefer. curl saw the same (curl/curl#2281).

/// The host names one hosts file lists.
struct HostsFile: Sendable {
    /// The system's file.
    static let system = HostsFile(path: "/etc/hosts")

    /// Where the file is.
    let path: String

    /// The most bytes read; a larger file counts as listing nothing.
    static let sizeLimit = 1 << 20

    /// Whether the file lists `host` (case-insensitively, a trailing dot ignored). Reads the file
    /// each time, as getaddrinfo does: call it on a resolver thread. A file that is missing,
    /// unreadable or over `sizeLimit` lists nothing.
    func lists(_ host: String) -> Bool {
        guard let bytes = try? FileIO.system.contentsOfFile(path, limit: Self.sizeLimit) else { return false }
        return Self.lists(host, in: bytes)
    }

    /// Whether the hosts-file text `bytes` lists `host`: some line's second or later field (the
    /// first is the address), before any `#`, equals it.
    static func lists(_ host: String, in bytes: [UInt8]) -> Bool {
        let wanted = Array((host.hasSuffix(".") ? String(host.dropLast()) : host).lowercased().utf8)
        guard !wanted.isEmpty else { return false }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let content = line.prefix { $0 != UInt8(ascii: "#") }
            let fields = content.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == 0x0D }
            for name in fields.dropFirst()
            where name.count == wanted.count && zip(name, wanted).allSatisfy({ lowercased($0) == $1 }) {
                return true
            }
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
