// What a Session keeps cookies in: the protocol, and the conveniences every store gets.
public import FoundationEssentials

/// Where a `Session` keeps cookies (`Session.Configuration.cookieStorage`): it stores those a
/// response sets and gives those a request sends, by RFC 6265bis. `InMemoryCookieStorage` is
/// the default and `FileCookieStorage` adds curl's cookie files; a store of your own (shared
/// between processes, say) conforms with the first two methods (the third has a default).
///
/// A store is shared by every request of a session, on any thread, so it must be thread-safe.
/// Time arrives as an argument, so a store's rules can be tested without a clock.
public protocol CookieStorage: AnyObject, Sendable {
    /// Stores the cookies of a response to `url`: `setCookieFields` are its `Set-Cookie`
    /// field values in order; each is parsed (`SetCookieParser`) and kept or refused by the
    /// storage model (RFC 6265bis §5.7) at time `now`. Never throws: a refused cookie is
    /// dropped, as a browser drops it.
    func storeCookies(from setCookieFields: [String], for url: URL, now: Date)

    /// The cookies a request to `url` sends at time `now`, in the order of its `Cookie` field
    /// (RFC 6265bis §5.8.3: longer paths first, then earlier creation); empty for a URL that is
    /// not http or https.
    func cookies(for url: URL, now: Date) -> [Cookie]

    /// The value of the `Cookie` field a request to `url` sends at `now` (each cookie's `pair`,
    /// joined by `; `, in `cookies(for:now:)`'s order), or nil when it sends none. What a
    /// `Session` calls for every request, so a store may answer it without making `Cookie`
    /// values; the default joins `cookies(for:now:)`.
    func cookieFieldValue(for url: URL, now: Date) -> String?

    /// Whether the store holds no cookie, so that no request needs a look-up: the session asks
    /// first, for every request. The default, false, makes every request look up.
    var isEmpty: Bool { get }
}

extension CookieStorage {
    /// False: a store that cannot tell is asked for every request's cookies.
    public var isEmpty: Bool { false }

    /// `storeCookies(from:for:now:)` at the current time.
    public func storeCookies(from setCookieFields: [String], for url: URL) {
        storeCookies(from: setCookieFields, for: url, now: Date())
    }

    /// `cookies(for:now:)` at the current time.
    public func cookies(for url: URL) -> [Cookie] {
        cookies(for: url, now: Date())
    }

    /// `cookies(for:now:)`'s pairs joined by `; `, or nil when there are none.
    public func cookieFieldValue(for url: URL, now: Date) -> String? {
        let cookies = cookies(for: url, now: now)
        guard !cookies.isEmpty else { return nil }
        return cookies.lazy.map(\.pair).joined(separator: "; ")
    }

    /// `cookieFieldValue(for:now:)` at the current time.
    public func cookieFieldValue(for url: URL) -> String? {
        cookieFieldValue(for: url, now: Date())
    }
}
