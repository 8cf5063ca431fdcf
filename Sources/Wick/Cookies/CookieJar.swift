// The cookie store's rules as a value, with time as an argument: RFC 6265bis §5.7 (storage),
// §5.8.3 (retrieval), and the limits with their eviction order.
import FoundationEssentials

/// The cookies of a store and the rules that change them, without locks or clocks
/// (`InMemoryCookieStorage` puts one behind a lock). Rules, numbered as in RFC 6265bis §5.7:
///
/// - A cookie with no name whose value starts with `__Secure-` or `__Host-` is refused (step 4).
/// - Expiry: `Max-Age` wins over `Expires`; either is capped at 400 days from now (§5.6.1,
///   §5.6.2); neither makes a session cookie (step 7).
/// - `Domain`: non-ASCII is refused (step 9); a public suffix (`PublicSuffixList`) is refused
///   unless it is the request's host itself, which then makes a host-only cookie (step 10);
///   the request's host must domain-match it (step 11); with no `Domain` the cookie is
///   host-only.
/// - `Path`: the attribute, or the request's default path (step 12).
/// - `Secure` is refused from an insecure URL (step 14), and an insecure cookie from an
///   insecure URL may not shadow a secure one of the same name (step 16, "leave secure cookies
///   alone").
/// - `SameSite=None` needs `Secure` (step 20); `__Secure-` needs `Secure`, and `__Host-` needs
///   `Secure`, host-only and a `Path` attribute of `/` (steps 21, 22; prefixes without case).
/// - A cookie with the same name, domain, host-only flag and path is replaced, and its
///   creation time kept (step 23). An expired cookie only removes the one it replaces.
/// - Limits (§5.7's "remove excess cookies"): past `limits.perDomain` cookies for one domain,
///   that domain's expired cookies go, then its non-secure ones, then its secure ones; past
///   `limits.total`, every expired cookie goes, then the rest; least recently accessed first
///   within each group, then the earliest stored.
/// - Retrieval (§5.8.3): host-only cookies for their host only, others for it and its
///   subdomains; the path must path-match; `Secure` only over https; expired never. Longer
///   paths first, then earlier creation; each sent cookie's access time becomes now.
/// - The cookies a host's requests over one security may send are rendered once
///   (`HostCookieList`, for the last `renderedHostLimit` hosts): requests to that host,
///   whatever their paths, filter them by path and copy their bytes, until a cookie is stored
///   or removed or one of them expires. Their access times are written back before anything
///   reads them.
struct CookieJar {
    /// The bounds against a server that floods cookies.
    struct Limits: Sendable, Hashable {
        /// The most cookies kept for one domain (the spec's minimum: 50).
        var perDomain: Int
        /// The most cookies kept in all (the spec's minimum: 3000).
        var total: Int
    }

    /// Why a cookie was not stored.
    enum Refusal: Error, Equatable {
        /// A nameless cookie whose value starts with `__Secure-` or `__Host-` (step 4).
        case namelessPrefixedValue
        /// `Domain` has a byte that is not ASCII (step 9).
        case nonASCIIDomain
        /// `Domain` is a public suffix and not the request's host (step 10).
        case publicSuffixDomain
        /// The request's host does not domain-match `Domain` (step 11).
        case domainMismatch
        /// `Secure` from a URL that is not https (step 14).
        case secureFromInsecureURL
        /// An insecure cookie from an insecure URL would shadow a secure one (step 16).
        case shadowsSecureCookie
        /// `SameSite=None` without `Secure` (step 20).
        case sameSiteNoneWithoutSecure
        /// `__Secure-` without `Secure` (step 21).
        case securePrefixWithoutSecure
        /// `__Host-` without `Secure`, host-only and `Path=/` (step 22).
        case hostPrefixRequirementsUnmet
    }

    /// What storing a cookie did.
    enum Stored: Equatable {
        /// It is in the store.
        case stored
        /// It had expired already: the cookie it replaced (if any) is gone, and it is not kept.
        case expired
    }

    /// The longest a cookie may live from when it is set (§5.6.1, §5.6.2: 400 days).
    static let maximumLifetime: TimeInterval = 400 * 86_400

    /// The bounds.
    let limits: Limits
    /// The cookies, by their domain field; each list in §5.8.3's retrieval order (longer paths
    /// first, then earlier creation, then storing order), kept so on every insert, so a request
    /// whose cookies come from one domain sorts nothing.
    private var buckets: [Substring: [Entry]] = [:]
    /// How many cookies there are (expired ones not yet removed included).
    private(set) var count = 0
    /// How many of them are secure: the "leave secure cookies alone" scan runs only when some are.
    private var secureCount = 0
    /// The next cookie's storing number, which breaks ties of equal times.
    private var nextSequence: UInt64 = 0
    /// Counts the changes that move or remove cookies (a store, a removal): a `HostCookieList`
    /// of another generation is stale, its locations no longer valid.
    private var generation: UInt64 = 0
    /// The rendered cookies of the last hosts `Cookie` fields were built for (at most
    /// `renderedHostLimit`), each with what it was taken from.
    private var renderedHosts: [RenderedHost] = []
    /// Counts the fields built, to find the least recently used rendered host.
    private var fieldCount: UInt64 = 0
    /// The storage of the last walk of the store, kept for the next one.
    private var walkStorage: [Match] = []

    /// How many hosts' cookies are kept rendered at once: a daemon's few backends each get a
    /// field without a walk of the store.
    static let renderedHostLimit = 4

    /// One host's rendered cookies, what they were taken from, and when they last served.
    private struct RenderedHost {
        var source: HostListSource
        var list: HostCookieList<Match>
        var lastUsed: UInt64
    }

    /// What a `HostCookieList` was taken from. It holds while the jar's `generation` is the same
    /// (no cookie came or went, so its locations are valid) and until the first of its cookies
    /// expires: nothing else changes which cookies a host's requests over one security may send.
    private struct HostListSource {
        /// The host, a slice of the URL text it came from.
        var host: Substring
        var isSecure: Bool
        var generation: UInt64
        /// The earliest expiry among the list's cookies (nil: all are session cookies).
        var firstExpiry: Date?

        /// Whether the list serves `url` at `now` in a jar at `generation`.
        func holds(for url: CookieRequestURL, now: Date, generation: UInt64) -> Bool {
            generation == self.generation && url.isSecure == isSecure && (firstExpiry.map { now < $0 } ?? true)
                && CookieMatching.bytes(of: url.host, equal: host)
        }
    }

    /// A cookie and its storing number.
    private struct Entry {
        var cookie: Cookie
        var sequence: UInt64

        /// Whether it comes before `other` in a `Cookie` field (§5.8.3).
        func precedes(_ other: Entry) -> Bool {
            let (length, otherLength) = (cookie.path.utf8.count, other.cookie.path.utf8.count)
            if length != otherLength { return length > otherLength }
            return (cookie.creationTime, sequence) < (other.cookie.creationTime, other.sequence)
        }
    }

    /// An empty jar with these bounds.
    init(limits: Limits) {
        self.limits = limits
    }

    // MARK: - Storage (§5.7)

    /// Applies §5.7 to `parsed`, received in a response to `url` at `now`.
    /// - Throws: `Refusal` naming the rule that refused it.
    @discardableResult
    mutating func store(_ parsed: SetCookie, from url: CookieRequestURL, now: Date) throws(Refusal) -> Stored {
        if parsed.name.isEmpty, Self.hasPrefix(parsed.value, "__Secure-") || Self.hasPrefix(parsed.value, "__Host-") {
            throw .namelessPrefixedValue
        }
        var domain = parsed.domain ?? ""
        guard domain.utf8.allSatisfy({ $0 < 0x80 }) else { throw .nonASCIIDomain }
        if !domain.isEmpty, PublicSuffixList.isPublicSuffix(domain) {
            guard domain.utf8.elementsEqual(url.host.utf8) else { throw .publicSuffixDomain }
            domain = ""
        }
        let isHostOnly = domain.isEmpty
        if isHostOnly {
            domain = String(url.host)
        } else if !CookieMatching.domain(url.host, matches: domain) {
            throw .domainMismatch
        }
        let path = parsed.path ?? url.defaultPath
        if parsed.isSecure, !url.isSecure { throw .secureFromInsecureURL }
        if !parsed.isSecure, !url.isSecure, shadowsSecureCookie(named: parsed.name, domain: domain, path: path) {
            throw .shadowsSecureCookie
        }
        if parsed.sameSite == .none, !parsed.isSecure { throw .sameSiteNoneWithoutSecure }
        if Self.hasPrefix(parsed.name, "__Secure-"), !parsed.isSecure { throw .securePrefixWithoutSecure }
        if Self.hasPrefix(parsed.name, "__Host-"), !(parsed.isSecure && isHostOnly && parsed.hasPath && path == "/") {
            throw .hostPrefixRequirementsUnmet
        }
        let cookie = Cookie(
            name: parsed.name, value: parsed.value, domain: domain, path: path,
            expires: Self.expiry(of: parsed, now: now),
            isHostOnly: isHostOnly, isSecure: parsed.isSecure, isHTTPOnly: parsed.isHTTPOnly, sameSite: parsed.sameSite,
            creationTime: now)
        return insert(cookie, now: now)
    }

    /// Puts `cookie` in the store as it is (a cookie file's line, a cookie made by hand),
    /// replacing one with the same name, domain, host-only flag and path (whose creation time
    /// it takes), then applies the limits. An expired cookie only removes the one it replaces.
    @discardableResult
    mutating func insert(_ cookie: Cookie, now: Date) -> Stored {
        settleSendTimes()
        var cookie = cookie
        var sequence = nextSequence
        let key = Substring(cookie.domain)
        if let index = buckets[key]?.firstIndex(where: {
            $0.cookie.name == cookie.name && $0.cookie.isHostOnly == cookie.isHostOnly && $0.cookie.path == cookie.path
        }) {
            let old = remove(at: index, in: key)
            cookie.creationTime = old.cookie.creationTime
            sequence = old.sequence
        } else {
            nextSequence += 1
        }
        guard !cookie.isExpired(at: now) else { return .expired }
        let entry = Entry(cookie: cookie, sequence: sequence)
        // In retrieval order: a new cookie usually goes last, so the scan starts at the end.
        var entries = buckets.removeValue(forKey: key) ?? []
        var position = entries.endIndex
        while position > entries.startIndex, entry.precedes(entries[position - 1]) { position -= 1 }
        entries.insert(entry, at: position)
        buckets[key] = entries
        generation &+= 1
        count += 1
        if cookie.isSecure { secureCount += 1 }
        applyLimits(after: key, now: now)
        return .stored
    }

    /// §5.6.1-§5.6.2 and step 7: `Max-Age` (zero or less: the earliest time) over `Expires`,
    /// capped at `maximumLifetime`; nil for a session cookie.
    private static func expiry(of parsed: SetCookie, now: Date) -> Date? {
        let latest = now.addingTimeInterval(maximumLifetime)
        if let maxAge = parsed.maxAge {
            return maxAge <= 0 ? .distantPast : min(now.addingTimeInterval(TimeInterval(maxAge)), latest)
        }
        return parsed.expires.map { min($0, latest) }
    }

    /// Step 16: a secure cookie of this name whose domain domain-matches `domain` or the
    /// reverse, and whose path `path` path-matches.
    private func shadowsSecureCookie(named name: String, domain: String, path: String) -> Bool {
        guard secureCount > 0 else { return false }
        for (key, entries) in buckets
        where CookieMatching.domain(key, matches: domain) || CookieMatching.domain(domain, matches: key) {
            for entry in entries where entry.cookie.isSecure && entry.cookie.name == name {
                if CookieMatching.path(path.utf8.span, matches: entry.cookie.path.utf8.span) { return true }
            }
        }
        return false
    }

    /// Whether `text` starts with `prefix`, ASCII letters compared without case.
    private static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.count >= prefix.utf8.count
            && Substring(text).utf8.prefix(prefix.utf8.count).elementsEqual(prefix.utf8) {
                $0.asciiLowercased == $1.asciiLowercased
            }
    }

    // MARK: - Limits

    /// Removes excess cookies after one was stored for `key`.
    private mutating func applyLimits(after key: Substring, now: Date) {
        if let stored = buckets[key]?.count, stored > limits.perDomain {
            removeExpired(in: key, now: now)
            while let entries = buckets[key], entries.count > limits.perDomain {
                // Non-secure before secure, then the least recently accessed, then the oldest.
                let victim = entries.indices.min { a, b in
                    let (x, y) = (entries[a], entries[b])
                    return (x.cookie.isSecure ? 1 : 0, x.cookie.lastAccessTime, x.sequence)
                        < (y.cookie.isSecure ? 1 : 0, y.cookie.lastAccessTime, y.sequence)
                }!
                remove(at: victim, in: key)
            }
        }
        // Past the total: expired cookies first, then the least recently accessed (one pass
        // finds the victim and notices expired cookies).
        while count > limits.total {
            var victim: (key: Substring, index: Int, time: Date, sequence: UInt64)?
            var sawExpired = false
            for (key, entries) in buckets {
                for (index, entry) in entries.enumerated() {
                    sawExpired = sawExpired || entry.cookie.isExpired(at: now)
                    if let found = victim, (found.time, found.sequence) <= (entry.cookie.lastAccessTime, entry.sequence)
                    {
                        continue
                    }
                    victim = (key, index, entry.cookie.lastAccessTime, entry.sequence)
                }
            }
            if sawExpired {
                for key in Array(buckets.keys) { removeExpired(in: key, now: now) }
            } else if let victim {
                remove(at: victim.index, in: victim.key)
            }
        }
    }

    /// Removes the expired cookies of one domain.
    private mutating func removeExpired(in key: Substring, now: Date) {
        guard let entries = buckets[key] else { return }
        for index in entries.indices.reversed() where entries[index].cookie.isExpired(at: now) {
            remove(at: index, in: key)
        }
    }

    /// Removes one cookie, keeping the counts, and the domain's list when it empties.
    @discardableResult
    private mutating func remove(at index: Int, in key: Substring) -> Entry {
        let entry = buckets[key]!.remove(at: index)
        if buckets[key]!.isEmpty { buckets[key] = nil }
        generation &+= 1
        count -= 1
        if entry.cookie.isSecure { secureCount -= 1 }
        return entry
    }

    // MARK: - Retrieval (§5.8.3)

    /// One cookie a request sends: where it sits in the jar (valid until the jar's next
    /// structural change), and the keys that order it. No strings, so collecting and sorting
    /// matches retains nothing.
    private struct Match {
        var bucket: [Substring: [Entry]].Index
        var entry: Int
        var pathLength: Int
        var creationTime: Date
        var sequence: UInt64

        /// Whether it comes before `other` in the `Cookie` field (§5.8.3).
        func precedes(_ other: Match) -> Bool {
            if pathLength != other.pathLength { return pathLength > other.pathLength }
            return (creationTime, sequence) < (other.creationTime, other.sequence)
        }
    }

    /// The cookies a request to `url` at `now` sends, in the order of its `Cookie` field; their
    /// access time becomes `now`.
    mutating func cookies(for url: CookieRequestURL, now: Date) -> [Cookie] {
        settleSendTimes()
        var matches: [Match] = []
        let expired = collectMatches(for: url, path: url.path, now: now, into: &matches)
        let cookies = matches.map { buckets.values[$0.bucket][$0.entry].cookie }
        removeExpired(in: expired, now: now)
        return cookies
    }

    /// The `Cookie` field's value for a request to `url` at `now` (§5.8.3's serialization:
    /// `name=value`, or the value alone for a nameless cookie, joined by `; `), or nil when no
    /// cookie is sent; their access time becomes `now`. Walks the store only for a host and
    /// security none of the last `renderedHostLimit` fields was for, or after a change
    /// (`HostListSource`); otherwise a path filter over the host's rendered cookies. One
    /// allocation when cookies match (the string), none when none do or the host's last field
    /// was for the same path.
    mutating func cookieFieldValue(for url: CookieRequestURL, now: Date) -> String? {
        fieldCount &+= 1
        var index = renderedHosts.endIndex
        // By index: `firstIndex(where:)` would copy each rendered host to look at it.
        for candidate in renderedHosts.indices
        where renderedHosts[candidate].source.holds(for: url, now: now, generation: generation) {
            index = candidate
            break
        }
        if index == renderedHosts.endIndex { index = renderHost(for: url, now: now) }
        renderedHosts[index].lastUsed = fieldCount
        return renderedHosts[index].list.field(forPath: url.path.utf8.span, at: now)
    }

    /// Renders the cookies that requests to `url`'s host over its security may send, whatever
    /// their paths, removing the expired cookies it meets; returns its index in
    /// `renderedHosts`. It takes the place (and the storage) of the host's stale list, or of a
    /// stale one, or of the least recently used one when there are `renderedHostLimit`.
    private mutating func renderHost(for url: CookieRequestURL, now: Date) -> Int {
        settleSendTimes()
        var found: [Match] = []
        swap(&found, &walkStorage)
        defer {
            found.removeAll(keepingCapacity: true)
            swap(&found, &walkStorage)
        }
        let expired = collectMatches(for: url, path: nil, now: now, into: &found)
        if !expired.isEmpty {
            // Removing moves cookies: walk again (nothing expired is left to meet).
            removeExpired(in: expired, now: now)
            found.removeAll(keepingCapacity: true)
            _ = collectMatches(for: url, path: nil, now: now, into: &found)
        }
        let slot =
            renderedHosts.firstIndex {
                $0.source.isSecure == url.isSecure && CookieMatching.bytes(of: url.host, equal: $0.source.host)
            }
            ?? renderedHosts.firstIndex { $0.source.generation != generation }
            ?? (renderedHosts.count < Self.renderedHostLimit
                ? nil : renderedHosts.indices.min { renderedHosts[$0].lastUsed < renderedHosts[$1].lastUsed })
        var list = HostCookieList<Match>()
        if let slot { swap(&list, &renderedHosts[slot].list) }
        list.removeAll()
        var firstExpiry: Date?
        for match in found {
            let entries = buckets.values[match.bucket]
            list.append(
                match, path: entries[match.entry].cookie.path, name: entries[match.entry].cookie.name,
                value: entries[match.entry].cookie.value)
            if let expires = entries[match.entry].cookie.expires { firstExpiry = min(firstExpiry ?? expires, expires) }
        }
        let rendered = RenderedHost(
            source: HostListSource(
                host: url.host, isSecure: url.isSecure, generation: generation, firstExpiry: firstExpiry),
            list: list, lastUsed: fieldCount)
        guard let slot else {
            renderedHosts.append(rendered)
            return renderedHosts.count - 1
        }
        renderedHosts[slot] = rendered
        return slot
    }

    /// Writes the times the rendered hosts' cookies were last sent into their access times.
    /// Called before anything reads those times or moves cookies (a list locates them only
    /// until then); lists of an older generation have nothing left to write.
    private mutating func settleSendTimes() {
        for index in renderedHosts.indices where renderedHosts[index].source.generation == generation {
            renderedHosts[index].list.foldLastField()
            var wrote = false
            for (location, sentAt) in zip(renderedHosts[index].list.locations, renderedHosts[index].list.sendTimes) {
                guard let sentAt else { continue }
                buckets.values[location.bucket][location.entry].cookie.lastAccessTime = sentAt
                wrote = true
            }
            if wrote { renderedHosts[index].list.forgetSendTimes() }
        }
    }

    /// Appends §5.8.3's cookie-list for a request to `url` at `now` to `found` (empty), sorted
    /// (longer paths first, then earlier creation, then storing order): with `path`, the
    /// cookies whose paths it matches, each marked accessed; with nil, those of every path,
    /// unmarked (`HostCookieList` filters them per request). Returns the domains where expired
    /// cookies were met, for the caller to clean once it has read the matches. One look-up per label of the host, nothing at all when the jar is
    /// empty. Each domain's matches arrive in order (its list is kept so), so only a request
    /// whose cookies come from two domains or more merges them (`merge(_:runFrom:)`, in the
    /// list's own spare capacity). A list with the capacity of the last walk allocates nothing.
    private mutating func collectMatches(
        for url: CookieRequestURL, path: Substring?, now: Date, into found: inout [Match]
    ) -> [Substring] {
        guard count > 0 else { return [] }
        var expired: [Substring] = []
        var key = url.host
        while true {
            if let bucket = buckets.index(forKey: key) {
                // Host-only cookies sit under their host's own key, so only there do they match.
                let isHost = key.startIndex == url.host.startIndex
                let runStart = found.endIndex
                // Room for this domain's run twice: it is copied past the end while it is merged.
                found.reserveCapacity(runStart + 2 * buckets.values[bucket].count)
                if Self.collect(
                    from: &buckets.values[bucket], at: bucket, isHost: isHost, isSecure: url.isSecure, path: path,
                    now: now,
                    into: &found)
                {
                    expired.append(key)
                }
                if runStart > 0, runStart < found.endIndex { Self.merge(&found, runFrom: runStart) }
            }
            guard let parent = Self.parentDomain(of: key, in: url) else { break }
            key = parent
        }
        return expired
    }

    /// The domain after the first dot of `key` (a label of `url`'s host), or nil at the last
    /// label and for an IP address, which has no parent domains.
    private static func parentDomain(of key: Substring, in url: CookieRequestURL) -> Substring? {
        guard !url.isIPAddress, let dot = key.utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        return Substring(key.utf8[key.utf8.index(after: dot)...])
    }

    /// Merges `found`'s two sorted runs, the one before `start` and the one from it, into one:
    /// the second run is copied past the end (within the reserved capacity: no allocation),
    /// then both are merged from the back into place, one move per element.
    private static func merge(_ found: inout [Match], runFrom start: Int) {
        let end = found.endIndex
        // One by one: appending a slice of `found` would share its buffer and copy it whole.
        for index in start..<end { found.append(found[index]) }
        var write = end - 1
        var first = start - 1
        var second = found.endIndex - 1
        while second >= end {
            if first >= 0, found[second].precedes(found[first]) {
                found[write] = found[first]
                first -= 1
            } else {
                found[write] = found[second]
                second -= 1
            }
            write -= 1
        }
        found.removeLast(end - start)
    }

    /// Appends the matches among one domain's cookies (the list at `bucket`) for a request
    /// over `isSecure` at `now` (to the bucket's own host when `isHost`) whose path is `path`,
    /// marking them accessed; with no path, those of every path, unmarked. Returns whether it
    /// met an expired cookie. The list is borrowed in place, so it is neither hashed again nor
    /// copied.
    private static func collect(
        from entries: inout [Entry], at bucket: [Substring: [Entry]].Index, isHost: Bool, isSecure: Bool,
        path: Substring?, now: Date, into found: inout [Match]
    ) -> Bool {
        var sawExpired = false
        for index in entries.indices {
            if entries[index].cookie.isExpired(at: now) {
                sawExpired = true
                continue
            }
            guard isHost || !entries[index].cookie.isHostOnly, !entries[index].cookie.isSecure || isSecure else {
                continue
            }
            if let path {
                guard CookieMatching.path(path.utf8.span, matches: entries[index].cookie.path.utf8.span) else {
                    continue
                }
                entries[index].cookie.lastAccessTime = now
            }
            found.append(
                Match(
                    bucket: bucket, entry: index, pathLength: entries[index].cookie.path.utf8.count,
                    creationTime: entries[index].cookie.creationTime, sequence: entries[index].sequence))
        }
        return sawExpired
    }

    /// Removes the expired cookies of these domains.
    private mutating func removeExpired(in keys: [Substring], now: Date) {
        for key in keys { removeExpired(in: key, now: now) }
    }

    /// Every cookie not expired at `now`, oldest first (creation time, then storing order).
    mutating func allCookies(now: Date) -> [Cookie] {
        settleSendTimes()
        return buckets.values.flatMap { $0.filter { !$0.cookie.isExpired(at: now) } }
            .sorted { ($0.cookie.creationTime, $0.sequence) < ($1.cookie.creationTime, $1.sequence) }.map(\.cookie)
    }

    /// Removes every cookie.
    mutating func removeAll() {
        renderedHosts.removeAll()
        buckets = [:]
        generation &+= 1
        count = 0
        secureCount = 0
    }
}
