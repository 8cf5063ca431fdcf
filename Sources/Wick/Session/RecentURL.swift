// The last URL string a session parsed, so a daemon calling one endpoint parses it once.
import FoundationEssentials
import Synchronization
import WickReactor

/// A one-entry memo of `URL(string:)` for the URL strings a session's requests are made from.
///
/// Parsing a URL string is about 3,400 instructions and two allocations (Foundation's parser and
/// its storage), a twentieth of a small keep-alive request's whole cost; most daemons send most
/// of their requests to a handful of endpoints, often one. The memo keeps the last string and its
/// URL: a request made from an equal string (an identical one compares in constant time) reuses
/// the URL, any other string is parsed and replaces it. The same string always parses to the
/// same URL, so the memo changes no result.
final class RecentURL: Sendable {
    /// `RequestStateLock`: `Synchronization.Mutex`, or under ThreadSanitizer the pthread-based
    /// lock whose ordering TSan sees.
    private let last = RequestStateLock<(string: String, url: URL)?>(nil)

    /// The URL `string` parses to.
    /// - Throws: `WickError.invalidURL` when it does not parse.
    func url(parsing string: String) throws(WickError) -> URL {
        if let url = last.withLock({ $0?.string == string ? $0?.url : nil }) { return url }
        let url = try string.asURL()
        last.withLock { $0 = (string, url) }
        return url
    }
}

extension Session {
    /// `convertible.asURL()`, with a string parsed through the session's `RecentURL` memo.
    /// - Throws: what `asURL()` throws.
    func url(from convertible: some URLConvertible) throws(WickError) -> URL {
        if let string = convertible as? String { return try recentURL.url(parsing: string) }
        return try convertible.asURL()
    }
}
