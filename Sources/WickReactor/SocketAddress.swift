// Where a socket connects to: an IPv4 or IPv6 address with a port, or a Unix domain socket path.
//
// This file converts between the Swift value and C `sockaddr` structures, so it touches raw
// pointers: each conversion is marked `// SAFETY:`.
import CWickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A socket address. No C type appears in its API.
public enum SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address (4 bytes, network order) and port.
    case ipv4(bytes: [UInt8], port: UInt16)
    /// An IPv6 address (16 bytes, network order), port and scope (interface index, 0 if none).
    case ipv6(bytes: [UInt8], port: UInt16, scopeID: UInt32)
    /// A Unix domain socket at a file-system path.
    case unix(path: String)

    /// The longest Unix socket path the kernel accepts, in bytes (`sun_path` less its NUL).
    public static let maximumUnixPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Parses a numeric IPv4 (`127.0.0.1`) or IPv6 (`::1`, `[::1]`) host; `nil` if `host` is a name.
    /// Used to short-circuit resolution: numeric hosts never go to the resolver thread.
    public init?(numericHost host: String, port: UInt16) {
        var host = host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var v4 = in_addr()
        // SAFETY: inet_pton writes at most sizeof(in_addr) bytes into a stack value.
        if inet_pton(AF_INET, host, &v4) == 1 {
            self = .ipv4(bytes: withUnsafeBytes(of: v4) { Array($0) }, port: port)
            return
        }
        var v6 = in6_addr()
        // SAFETY: inet_pton writes at most sizeof(in6_addr) bytes into a stack value.
        if inet_pton(AF_INET6, host, &v6) == 1 {
            self = .ipv6(bytes: withUnsafeBytes(of: v6) { Array($0) }, port: port, scopeID: 0)
            return
        }
        return nil
    }

    /// `AF_INET`, `AF_INET6` or `AF_UNIX`.
    var family: Int32 {
        switch self {
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        case .unix: AF_UNIX
        }
    }

    /// Whether this is an IPv6 address (Happy Eyeballs interleaves the two IP families).
    public var isIPv6: Bool {
        if case .ipv6 = self { return true }
        return false
    }

    /// `127.0.0.1:80`, `[::1]:443`, `unix:/run/app.sock`.
    public var description: String {
        switch self {
        case .ipv4(let bytes, let port):
            return "\(bytes.map(String.init).joined(separator: ".")):\(port)"
        case .ipv6(let bytes, let port, _):
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            var raw = in6_addr()
            // SAFETY: bytes has 16 elements (checked when the value was built) and in6_addr is 16
            // bytes; inet_ntop writes at most INET6_ADDRSTRLEN bytes into text.
            withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
            _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
            return "[\(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))]:\(port)"
        case .unix(let path):
            return "unix:\(path)"
        }
    }

    /// Calls `body` with this address as a C `sockaddr` and its length.
    /// Throws `ReactorError.invalidAddress` for a malformed address or an over-long Unix path.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(ReactorError) -> R) throws(ReactorError)
        -> R
    {
        var storage = sockaddr_storage()
        let length: socklen_t
        switch self {
        case .ipv4(let bytes, let port):
            guard bytes.count == 4 else { throw .invalidAddress("IPv4 address of \(bytes.count) bytes") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            // SAFETY: sin_addr is 4 bytes and bytes has 4 elements.
            withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
            // SAFETY: sockaddr_storage is large enough for any sockaddr.
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        case .ipv6(let bytes, let port, let scopeID):
            guard bytes.count == 16 else { throw .invalidAddress("IPv6 address of \(bytes.count) bytes") }
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_scope_id = scopeID
            // SAFETY: sin6_addr is 16 bytes and bytes has 16 elements.
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
            // SAFETY: sockaddr_storage is large enough for any sockaddr.
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        case .unix(let path):
            let utf8 = Array(path.utf8)
            guard !utf8.isEmpty, utf8.count <= Self.maximumUnixPathLength, !utf8.contains(0) else {
                throw .invalidAddress(
                    "Unix socket path of \(utf8.count) bytes (1...\(Self.maximumUnixPathLength), no NUL)")
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            // SAFETY: sun_path holds maximumUnixPathLength + 1 bytes; we copy at most
            // maximumUnixPathLength and the zero-initialised remainder terminates the string.
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: utf8) }
            // SAFETY: sockaddr_storage is large enough for any sockaddr.
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_un.self) }
            length = socklen_t(MemoryLayout<sockaddr_un>.size)
        }
        // SAFETY: storage is a stack value alive for the call; sockaddr is its common prefix.
        return try withUnsafePointer(to: &storage) { (pointer) throws(ReactorError) -> R in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(ReactorError) -> R in
                try body(address, length)
            }
        }
    }

    /// Reads an IPv4 or IPv6 `sockaddr` of `length` bytes; `nil` for other families.
    init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        // SAFETY: callers pass a sockaddr they keep alive for this call (getsockname's
        // sockaddr_storage, or getaddrinfo's ai_addr); sa_family is the leading field of every
        // sockaddr, and the full layouts are read below only when `length` covers them.
        switch Int32(address.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            // SAFETY: the family and length say the memory holds a sockaddr_in.
            let v4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self = .ipv4(bytes: withUnsafeBytes(of: v4.sin_addr) { Array($0) }, port: UInt16(bigEndian: v4.sin_port))
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            // SAFETY: the family and length say the memory holds a sockaddr_in6.
            let v6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            self = .ipv6(
                bytes: withUnsafeBytes(of: v6.sin6_addr) { Array($0) },
                port: UInt16(bigEndian: v6.sin6_port), scopeID: v6.sin6_scope_id)
        default:
            return nil
        }
    }
}
