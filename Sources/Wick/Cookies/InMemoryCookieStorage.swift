// The default cookie store: a CookieJar behind a lock, for as long as its Session lives.
public import FoundationEssentials
import Synchronization
import WickReactor

/// A thread-safe cookie store in memory, by RFC 6265bis (the rules are listed on `CookieJar`):
/// what `Session.Configuration.cookieStorage` holds by default. Bounded against hostile
/// servers: at most `maximumCookiesPerDomain` cookies per domain and `maximumCookies` in all,
/// the least recently used going first, and no cookie larger than 4096 bytes of name and value.
///
/// A request to a host with no cookies costs one lock and a dictionary look-up per label of
/// its host, and allocates nothing; while the store is empty it costs one atomic load.
public final class InMemoryCookieStorage: CookieStorage {
    /// The spec's minimum for one domain, and the default: 50.
    public static let defaultMaximumCookiesPerDomain = 50
    /// The spec's minimum in all, and the default: 3000.
    public static let defaultMaximumCookies = 3000

    /// The cookies; the lock is held only for a store's or a look-up's own work. A pthread
    /// mutex (`Locked`), not `Synchronization.Mutex`: ThreadSanitizer must see the hand-overs.
    private let jar: Locked<CookieJar>
    /// `jar`'s count as of its last change, readable without the lock (`isEmpty`).
    private let storedCount = Atomic<Int>(0)

    /// An empty store.
    /// - Parameter maximumCookiesPerDomain: the most cookies kept for one domain (at least 1).
    /// - Parameter maximumCookies: the most cookies kept in all (at least 1).
    public init(
        maximumCookiesPerDomain: Int = defaultMaximumCookiesPerDomain, maximumCookies: Int = defaultMaximumCookies
    ) {
        precondition(
            maximumCookiesPerDomain >= 1 && maximumCookies >= 1, "InMemoryCookieStorage: limits must be positive")
        jar = Locked(CookieJar(limits: CookieJar.Limits(perDomain: maximumCookiesPerDomain, total: maximumCookies)))
    }

    /// The most cookies kept for one domain.
    public var maximumCookiesPerDomain: Int { jar.withLock { $0.limits.perDomain } }
    /// The most cookies kept in all.
    public var maximumCookies: Int { jar.withLock { $0.limits.total } }

    /// Parses and stores each field's cookie, dropping those RFC 6265bis refuses; does nothing
    /// for a URL that is not http or https.
    public func storeCookies(from setCookieFields: [String], for url: URL, now: Date) {
        guard let target = CookieRequestURL(url) else { return }
        let parsed = setCookieFields.compactMap(SetCookieParser.parse)
        guard !parsed.isEmpty else { return }
        changingJar { jar in
            for cookie in parsed { _ = try? jar.store(cookie, from: target, now: now) }
        }
    }

    /// The cookies a request to `url` sends at `now`, in their `Cookie` field's order; marks
    /// them accessed.
    public func cookies(for url: URL, now: Date) -> [Cookie] {
        changingJar { jar in
            // Not even the URL is read while the store is empty.
            guard jar.count > 0, let target = CookieRequestURL(url) else { return [] }
            return jar.cookies(for: target, now: now)
        }
    }

    /// The `Cookie` field's value for a request to `url` at `now`, built in one string; marks
    /// the cookies accessed.
    public func cookieFieldValue(for url: URL, now: Date) -> String? {
        changingJar { jar in
            guard jar.count > 0, let target = CookieRequestURL(url) else { return nil }
            return jar.cookieFieldValue(for: target, now: now)
        }
    }

    /// Stores `cookie` as it is (no §5.7 checks: a cookie you made or read from a file),
    /// replacing one with the same name, domain, host-only flag and path, then applies the
    /// limits. An expired cookie only removes the one it replaces.
    public func insert(_ cookie: Cookie, now: Date = Date()) {
        changingJar { _ = $0.insert(cookie, now: now) }
    }

    /// Every cookie not expired at `now`, oldest first.
    public func allCookies(now: Date = Date()) -> [Cookie] {
        changingJar { $0.allCookies(now: now) }
    }

    /// Removes every cookie.
    public func removeAll() {
        changingJar { $0.removeAll() }
    }

    /// Whether no cookie is stored (expired ones count until a look-up or a store drops them),
    /// without taking the lock: the session asks before each request's look-up.
    public var isEmpty: Bool { storedCount.load(ordering: .acquiring) == 0 }

    /// `body` on the jar under its lock (a look-up too: it marks cookies accessed and drops
    /// expired ones), then the count `isEmpty` reads.
    private func changingJar<Result>(_ body: (inout CookieJar) -> Result) -> Result {
        jar.withLock { jar in
            let result = body(&jar)
            storedCount.store(jar.count, ordering: .releasing)
            return result
        }
    }
}
