// The resolver a session's connector asks: `ResolveOverride`s first, then the user's
// `NameResolver`, then the system's `getaddrinfo` resolver.
import WickReactor

/// Answers `HostResolving` lookups by a session's `NameResolution`: an override's addresses at
/// once, a user's resolver on the concurrency pool, or the system resolver.
struct SessionResolver: HostResolving {
    /// The addresses of each overridden `host:port`, parsed once.
    private let overrides: [Key: [SocketAddress]]
    private let custom: (any NameResolver)?
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
        var addresses: [SocketAddress] = []
        for text in answer {
            let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
            guard let address = SocketAddress(numericHost: bare, port: port) else {
                return .failure(
                    .resolutionFailed(host: host, reason: "\(type(of: resolver)) answered '\(text)', not an IP address")
                )
            }
            addresses.append(address)
        }
        return .success(addresses)
    }
}
