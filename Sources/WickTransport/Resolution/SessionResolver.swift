// The resolver a session's connector asks: `ResolveOverride`s first, then the user's
// `NameResolver` (per family when it is a `PerFamilyNameResolver`), then the system's resolver.
import WickReactor

/// Answers `HostResolving` lookups by a session's `NameResolution`: an override's addresses at
/// once, a user's resolver on the concurrency pool, or the system resolver. For Happy Eyeballs
/// (`resolveByFamily`) an override and a plain `NameResolver` give one list (`.all`, their order
/// kept); a `PerFamilyNameResolver` is asked for IPv6 and IPv4 at once, each answer delivered as
/// it comes; the system resolver runs its two lookups.
struct SessionResolver: HostResolving {
    /// The addresses of each overridden `host:port`, parsed once.
    private let overrides: [Key: [SocketAddress]]
    private let custom: (any NameResolver)?
    /// `custom`, when it answers per family.
    private let perFamily: (any PerFamilyNameResolver)?
    private let system: any HostResolving

    private struct Key: Hashable {
        let host: String
        let port: UInt16
    }

    /// A resolver by `resolution`, falling back to `system`.
    init(resolution: NameResolution, system: any HostResolving) {
        var overrides: [Key: [SocketAddress]] = [:]
        for entry in resolution.resolveOverrides {
            let port = UInt16(entry.port)
            let addresses = entry.addresses.map { address in
                guard let parsed = SocketAddress(numericHost: address, port: port) else {
                    preconditionFailure("ResolveOverride holds '\(address)', which it checked is an IP literal")
                }
                return parsed
            }
            // The first entry for a host and port wins, as in curl's list.
            if overrides[Key(host: entry.host, port: port)] == nil {
                overrides[Key(host: entry.host, port: port)] = addresses
            }
        }
        self.overrides = overrides
        custom = resolution.resolver
        perFamily = resolution.resolver as? any PerFamilyNameResolver
        self.system = system
    }

    func resolve(
        host: String, port: UInt16, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<[SocketAddress], ReactorError>) -> Void
    ) {
        if let addresses = overrides[Key(host: host.lowercased(), port: port)] {
            loop.execute { completion(.success(addresses)) }
            return
        }
        guard let custom, SocketAddress(numericHost: host, port: port) == nil else {
            system.resolve(host: host, port: port, on: loop, completion)
            return
        }
        Task {
            let result = await Self.ask(custom, host: host, port: port)
            loop.execute { completion(result) }
        }
    }

    func resolveByFamily(
        host: String, port: UInt16, on loop: EventLoop, _ answer: @escaping @Sendable (ResolverAnswer) -> Void
    ) {
        if let addresses = overrides[Key(host: host.lowercased(), port: port)] {
            loop.execute { answer(.all(.success(addresses))) }
            return
        }
        guard let custom, SocketAddress(numericHost: host, port: port) == nil else {
            system.resolveByFamily(host: host, port: port, on: loop, answer)
            return
        }
        guard let perFamily else {
            Task {
                let result = await Self.ask(custom, host: host, port: port)
                loop.execute { answer(.all(result)) }
            }
            return
        }
        // AAAA first, as RFC 8305 §3 asks; the pool decides which runs first.
        Task {
            let result = await Self.ask(perFamily, host: host, port: port, family: .ipv6)
            loop.execute { answer(.ipv6(result)) }
        }
        Task {
            let result = await Self.ask(perFamily, host: host, port: port, family: .ipv4)
            loop.execute { answer(.ipv4(result)) }
        }
    }

    /// The user's resolver's answer as socket addresses, or the failure naming `host`.
    private static func ask(
        _ resolver: any NameResolver, host: String, port: UInt16
    ) async -> Result<[SocketAddress], ReactorError> {
        let answer: [String]
        do {
            answer = try await resolver.addresses(forHost: host, port: Int(port))
        } catch {
            return .failure(.resolutionFailed(host: host, reason: "\(type(of: resolver)): \(error)"))
        }
        guard !answer.isEmpty else { return .failure(.unknownHost(host)) }
        return parse(answer, from: resolver, host: host, port: port, family: nil)
    }

    /// The user's resolver's answer for one family: its addresses (empty: none of that family),
    /// or the failure naming `host` and the family.
    private static func ask(
        _ resolver: any PerFamilyNameResolver, host: String, port: UInt16, family: IPAddressFamily
    ) async -> Result<[SocketAddress], ReactorError> {
        let answer: [String]
        do {
            answer = try await resolver.addresses(forHost: host, port: Int(port), family: family)
        } catch {
            return .failure(.resolutionFailed(host: host, reason: "\(type(of: resolver)) (\(family)): \(error)"))
        }
        return parse(answer, from: resolver, host: host, port: port, family: family)
    }

    /// `answer`'s literals as socket addresses, each of `family` when one is given, or the
    /// failure naming the first entry that is not.
    private static func parse(
        _ answer: [String], from resolver: any NameResolver, host: String, port: UInt16, family: IPAddressFamily?
    ) -> Result<[SocketAddress], ReactorError> {
        var addresses: [SocketAddress] = []
        for text in answer {
            let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
            guard let address = SocketAddress(numericHost: bare, port: port) else {
                return .failure(
                    .resolutionFailed(host: host, reason: "\(type(of: resolver)) answered '\(text)', not an IP address")
                )
            }
            if let family, address.isIPv6 != (family == .ipv6) {
                return .failure(
                    .resolutionFailed(
                        host: host, reason: "\(type(of: resolver)) answered '\(text)' for \(family), another family"))
            }
            addresses.append(address)
        }
        return .success(addresses)
    }
}
