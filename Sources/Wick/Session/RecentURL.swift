// The last URL string a session parsed, so a daemon calling one endpoint parses it once.
import FoundationEssentials
import Synchronization
import WickReactor
import WickTransport

/// A one-entry memo of `URL(string:)` for the URL strings a session's requests are made from.
///
/// Parsing a URL string is about 3,400 instructions and two allocations (Foundation's parser and
/// its storage), a twentieth of a small keep-alive request's whole cost; most daemons send most
/// of their requests to a handful of endpoints, often one. The memo keeps the last string and its
/// URL: a request made from an equal string (an identical one compares in constant time) reuses
/// the URL, any other string is parsed and replaces it. The same string always parses to the
/// same URL, so the memo changes no result.
///
/// It also keeps the transport's reading of that URL (`TransportDestination`, about 1,500
/// instructions and an allocation to make) once a request to it was checked, for the next
/// request to the same URL without a socket path: the reading is a function of the URL alone.
final class RecentURL: Sendable {
    /// The last string parsed, its URL, and the URL's reading once one was made.
    private struct Entry {
        let string: String
        let url: URL
        var destination: TransportDestination?
    }

    /// `RequestStateLock`: `Synchronization.Mutex`, or under ThreadSanitizer the pthread-based
    /// lock whose ordering TSan sees.
    private let last = RequestStateLock<Entry?>(nil)

    /// The URL `string` parses to.
    /// - Throws: `WickError.invalidURL` when it does not parse.
    func url(parsing string: String) throws(WickError) -> URL {
        if let url = last.withLock({ $0?.string == string ? $0?.url : nil }) { return url }
        let url = try string.asURL()
        last.withLock { $0 = Entry(string: string, url: url) }
        return url
    }

    /// Gives `request` the kept reading of its URL, when the request has none yet, names no
    /// socket path and goes to the memo's URL. Returns whether it did.
    func keepDestination(in request: inout HTTPRequest) -> Bool {
        guard request.checkedDestination == nil, request.unixSocketPath == nil else { return false }
        let url = request.url
        guard let destination = last.withLock({ $0?.url == url ? $0?.destination : nil }) else { return false }
        request.keep(destination)
        return true
    }

    /// Keeps `request`'s reading of its URL for the next request, when the request names no
    /// socket path and goes to the memo's URL.
    func remember(destinationOf request: HTTPRequest) {
        guard request.unixSocketPath == nil, let destination = request.checkedDestination else { return }
        let url = request.url
        last.withLock { entry in
            if entry?.destination == nil, entry?.url == url { entry?.destination = destination }
        }
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
