// The local end of outgoing connections: an address to send from and the ports to use (curl's
// `--interface` with an address, and `--local-port`).
import WickReactor

/// Where a session's or a request's TCP connections are made from: a local IP address, a range of
/// local ports, or both.
///
/// Connections bind before they connect. An address must be one of this host's (else the connect
/// fails with `ConnectionFailure.Kind.addressUnavailable`) and of the family of the address
/// connected to (an IPv4 source cannot reach an IPv6 server: that attempt fails with
/// `.invalidAddress` and Happy Eyeballs tries the other addresses). Ports are tried in order until
/// one is free; all in use is `.addressUnavailable`. A binding is part of the pool's key, so a
/// connection made from one address never serves a request that asked for another. Unix-socket
/// requests ignore it.
public struct SourceBinding: Hashable, Sendable, CustomStringConvertible {
    /// The local IP literal (IPv6 without brackets); nil lets the kernel choose.
    public var address: String? { storage.address }
    /// The local ports to try, in order; nil lets the kernel choose.
    public var ports: ClosedRange<Int>? { storage.ports }

    /// The address and ports behind one reference: every request carries a `SourceBinding?`
    /// (nearly always nil) through the session and the transport, and an optional of the
    /// fields themselves was copied and destroyed through `Optional`'s generic value witnesses.
    private let storage: Storage

    private final class Storage: Sendable {
        let address: String?
        let ports: ClosedRange<Int>?

        init(address: String?, ports: ClosedRange<Int>?) {
            self.address = address
            self.ports = ports
        }
    }

    /// A binding to `address` (an IPv4 or IPv6 literal, brackets allowed) and `ports`.
    /// - Throws: `SourceBindingError.invalidAddress`, `.invalidPortRange` outside 1...65535, or
    ///   `.empty` when both are nil.
    public init(address: String? = nil, ports: ClosedRange<Int>? = nil) throws(SourceBindingError) {
        guard address != nil || ports != nil else { throw .empty }
        var bare: String?
        if let address {
            let unbracketed =
                address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
            guard SocketAddress(numericHost: unbracketed, port: 0) != nil else { throw .invalidAddress(address) }
            bare = unbracketed
        }
        if let ports, ports.lowerBound < 1 || ports.upperBound > 65_535 {
            throw .invalidPortRange("\(ports.lowerBound)-\(ports.upperBound)")
        }
        storage = Storage(address: bare, ports: ports)
    }

    /// Equal when the addresses and the ports are.
    public static func == (lhs: SourceBinding, rhs: SourceBinding) -> Bool {
        lhs.storage === rhs.storage || (lhs.address == rhs.address && lhs.ports == rhs.ports)
    }

    /// Hashes the address and the ports.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(address)
        hasher.combine(ports)
    }

    /// The ports of curl's `--local-port`: `N` or `N-M`.
    /// - Throws: `SourceBindingError.invalidPortRange`.
    public static func ports(curlArgument text: String) throws(SourceBindingError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in
            part.utf8.count <= 5 && !part.isEmpty && part.utf8.allSatisfy { (0x30...0x39).contains($0) }
                ? Int(part) : nil
        }
        guard (1...2).contains(parts.count), numbers.count == parts.count, let low = numbers.first,
            let high = numbers.last,
            low >= 1, low <= high, high <= 65_535
        else { throw .invalidPortRange(text) }
        return low...high
    }

    /// `192.0.2.7 ports 4000-4099`, `ports 5000-5000`, `[::1]`.
    public var description: String {
        let host = address.map { $0.contains(":") ? "[\($0)]" : $0 }
        let range = ports.map { "ports \($0.lowerBound)-\($0.upperBound)" }
        return [host, range].compactMap { $0 }.joined(separator: " ")
    }

    /// `options` with this binding's address and ports.
    func applied(to options: SocketOptions) -> SocketOptions {
        var bound = options
        bound.sourceAddress = address
        bound.sourcePorts = ports.map { UInt16($0.lowerBound)...UInt16($0.upperBound) }
        return bound
    }
}
