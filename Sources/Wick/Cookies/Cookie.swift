// A stored cookie: the record RFC 6265bis §5.7 keeps for each cookie it accepts.
public import FoundationEssentials

/// A cookie as a `CookieStorage` keeps it (RFC 6265bis §5.7): what the server set, resolved
/// against the URL that set it (its domain, path and host-only flag) and the time (its expiry).
public struct Cookie: Sendable, Hashable {
    /// The name; may be empty (then only the value is sent).
    public var name: String
    /// The value.
    public var value: String
    /// The host it belongs to, lower case, without a leading dot: the request's host for a
    /// host-only cookie, else its `Domain` attribute.
    public var domain: String
    /// The path it is sent under: its `Path` attribute, or the default path of the URL that
    /// set it (§5.1.4).
    public var path: String
    /// When it expires; nil for a session cookie (no `Max-Age` or `Expires`), which lives as
    /// long as its store.
    public var expires: Date?
    /// Sent only to `domain` itself (no `Domain` attribute), not to its subdomains.
    public var isHostOnly: Bool
    /// `Secure`: set only from https and sent only over https.
    public var isSecure: Bool
    /// `HttpOnly`: kept and written to cookie files; a client sends it like any other cookie.
    public var isHTTPOnly: Bool
    /// `SameSite`'s enforcement, kept.
    public var sameSite: CookieSameSite
    /// When it was first stored; a cookie that replaces another with the same name, domain,
    /// host-only flag and path keeps the first one's time. Orders cookies of equal path length.
    public var creationTime: Date
    /// When it was last stored or sent; the least recently used go first when a limit is hit.
    public var lastAccessTime: Date

    /// A cookie with the given fields (`lastAccessTime` defaults to `creationTime`).
    public init(
        name: String, value: String, domain: String, path: String = "/", expires: Date? = nil,
        isHostOnly: Bool = true, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: CookieSameSite = .default,
        creationTime: Date, lastAccessTime: Date? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expires = expires
        self.isHostOnly = isHostOnly
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.creationTime = creationTime
        self.lastAccessTime = lastAccessTime ?? creationTime
    }

    /// A cookie with an expiry time (`Max-Age` or `Expires`) survives its store's session.
    public var isPersistent: Bool { expires != nil }

    /// Whether it has expired at `now`: its expiry time is `now` or earlier.
    public func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// `name=value` as a `Cookie` field sends it: just the value when the name is empty
    /// (RFC 6265bis §5.8.3).
    public var pair: String { name.isEmpty ? value : name + "=" + value }
}
