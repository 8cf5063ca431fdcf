// The SameSite attribute's enforcement (RFC 6265bis §5.6.7), kept with a cookie.

/// A cookie's `SameSite` enforcement (RFC 6265bis §5.6.7). Wick keeps it and writes it back to
/// a cookie file; a client has no browsing context, so every request is same-site and the
/// value never withholds a cookie. One rule applies at storage: a `None` cookie must be `Secure`.
public enum CookieSameSite: String, Sendable, Hashable, CaseIterable {
    /// No `SameSite` attribute, or one whose value is not `Strict`, `Lax` or `None`.
    case `default`
    /// `SameSite=Strict`.
    case strict
    /// `SameSite=Lax`.
    case lax
    /// `SameSite=None`: stored only when the cookie is also `Secure`.
    case none
}
