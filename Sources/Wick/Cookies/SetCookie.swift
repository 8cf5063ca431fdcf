// One Set-Cookie field as RFC 6265bis §5.6 parses it: the name, the value and the attributes
// that survived, before the storage model (§5.7) decides whether and how the cookie is kept.
public import FoundationEssentials

/// A `Set-Cookie` field value parsed by RFC 6265bis §5.6 (`SetCookieParser.parse`): the cookie's
/// name and value and the last valid value of each attribute. Nothing here depends on the
/// response's URL or the time; `CookieStorage` applies those when it stores the cookie.
public struct SetCookie: Sendable, Hashable {
    /// The name, with surrounding spaces and tabs removed; empty when the field had no `=`.
    public var name: String
    /// The value, with surrounding spaces and tabs removed (quotes are kept: they are part of
    /// the value).
    public var value: String
    /// The last `Expires` that parsed as a cookie date (`CookieDateParser`); nil when none did.
    public var expires: Date?
    /// The last valid `Max-Age` in seconds (an optional `-` and digits; values past `Int64`
    /// clamp to its bounds); zero or less means the cookie expires at once. It wins over
    /// `expires`.
    public var maxAge: Int64?
    /// The last non-empty `Domain`, its leading dot removed and lower-cased; nil when none.
    public var domain: String?
    /// The last `Path`'s value when it starts with `/`; nil when there was none or the last one
    /// did not (the storage then uses the request URL's default path, §5.1.4).
    public var path: String?
    /// A `Path` attribute was present, valid or not (the `__Host-` prefix requires one).
    public var hasPath: Bool
    /// `Secure` was present.
    public var isSecure: Bool
    /// `HttpOnly` was present.
    public var isHTTPOnly: Bool
    /// The last `SameSite`'s enforcement; `.default` when none.
    public var sameSite: CookieSameSite

    /// A parsed cookie with the given parts.
    public init(
        name: String, value: String, expires: Date? = nil, maxAge: Int64? = nil, domain: String? = nil,
        path: String? = nil, hasPath: Bool? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false,
        sameSite: CookieSameSite = .default
    ) {
        self.name = name
        self.value = value
        self.expires = expires
        self.maxAge = maxAge
        self.domain = domain
        self.path = path
        self.hasPath = hasPath ?? (path != nil)
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
    }
}
