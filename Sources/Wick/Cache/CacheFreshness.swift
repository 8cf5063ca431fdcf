// How old a stored response is and how long it stays fresh (RFC 9111 §4.2), as plain arithmetic.
public import FoundationEssentials

/// A stored response's age and freshness lifetime at one moment, by RFC 9111 §4.2. Time is an
/// argument, so every rule is tested without a clock. Seconds are whole (§1.2.2), rounded down.
public struct CacheFreshness: Sendable, Equatable {
    /// `current_age` (§4.2.3), in seconds.
    public let age: Int
    /// `freshness_lifetime` (§4.2.1), in seconds; 0 when the response has none.
    public let lifetime: Int
    /// Whether the lifetime came from the heuristic of §4.2.2 (no explicit expiry).
    public let isHeuristic: Bool

    /// The longest heuristic lifetime given: one day. §4.2.2 suggests 10% of the time since
    /// `Last-Modified`; a resource unchanged for years would otherwise stay fresh for months.
    public static let maximumHeuristicLifetime = 86_400

    /// Whether the response is fresh (§4.2: `freshness_lifetime > current_age`).
    public var isFresh: Bool { lifetime > age }
    /// How many seconds past its lifetime the response is; 0 while fresh.
    public var staleness: Int { max(0, age - lifetime) }

    /// The age and lifetime of `stored` at `now`.
    public init(of stored: CachedResponse, now: Date) {
        age = Self.currentAge(of: stored, now: now)
        (lifetime, isHeuristic) = Self.freshnessLifetime(of: stored)
    }

    /// `current_age` (§4.2.3): the corrected initial age plus the time resident in the cache.
    ///
    ///     apparent_age = max(0, response_time - date_value)
    ///     response_delay = response_time - request_time
    ///     corrected_age_value = age_value + response_delay
    ///     corrected_initial_age = max(apparent_age, corrected_age_value)
    ///     resident_time = now - response_time
    ///     current_age = corrected_initial_age + resident_time
    ///
    /// A response without a valid `Date` uses its arrival as `date_value`, so its apparent age
    /// is 0; an invalid `Age` counts as absent (§5.1).
    static func currentAge(of stored: CachedResponse, now: Date) -> Int {
        let responseTime = stored.responseDate.timeIntervalSince1970
        let dateValue = stored.headers.value(for: "Date").flatMap(CookieDateParser.parse)?.timeIntervalSince1970 ?? responseTime
        let ageValue = Double(stored.headers.value(for: "Age").flatMap { CacheControl.deltaSeconds(Array($0.utf8)) } ?? 0)
        let apparentAge = max(0, responseTime - dateValue)
        let responseDelay = max(0, responseTime - stored.requestDate.timeIntervalSince1970)
        let correctedAgeValue = ageValue + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince1970 - responseTime)
        return Self.seconds(correctedInitialAge + residentTime)
    }

    /// `freshness_lifetime` (§4.2.1) for a private cache: `max-age` (`s-maxage` is for shared
    /// caches), else `Expires` minus `Date` (an `Expires` that is not a valid date, such as "0",
    /// is in the past: §5.3), else the heuristic of §4.2.2.
    static func freshnessLifetime(of stored: CachedResponse) -> (seconds: Int, isHeuristic: Bool) {
        let control = stored.cacheControl
        if let maxAge = control.maxAge { return (maxAge, false) }
        let date = stored.headers.value(for: "Date").flatMap(CookieDateParser.parse) ?? stored.responseDate
        if let expires = stored.headers.value(for: "Expires") {
            guard let expiry = CookieDateParser.parse(expires) else { return (0, false) }
            return (seconds(max(0, expiry.timeIntervalSince(date))), false)
        }
        return (heuristicLifetime(of: stored, date: date, control: control), true)
    }

    /// §4.2.2: only for a response with no explicit expiry whose status is heuristically
    /// cacheable (`CacheStorability.heuristicallyCacheableStatuses`) or that is marked `public`;
    /// 10% of the time between `Last-Modified` and `Date`, at most `maximumHeuristicLifetime`.
    /// 0 without `Last-Modified`.
    private static func heuristicLifetime(of stored: CachedResponse, date: Date, control: CacheControl) -> Int {
        guard CacheStorability.heuristicallyCacheableStatuses.contains(stored.statusCode) || control.isPublic,
            let lastModified = stored.headers.value(for: "Last-Modified").flatMap(CookieDateParser.parse)
        else { return 0 }
        let sinceModified = date.timeIntervalSince(lastModified)
        guard sinceModified > 0 else { return 0 }
        return min(seconds(sinceModified / 10), maximumHeuristicLifetime)
    }

    /// Whole seconds, rounded down and kept within `Int`.
    private static func seconds(_ interval: Double) -> Int {
        guard interval.isFinite, interval > 0 else { return 0 }
        return interval >= Double(Int32.max) ? Int(Int32.max) : Int(interval)
    }
}
