// Redirects as curl takes them: followed only with `-L`, and every redirect response kept so
// that `-i` and `-v` can show each hop's head.
import Synchronization
import Wick

/// Follows redirects when asked to, and records each redirect response in order.
final class RedirectRecorder: RedirectHandler {
    /// Whether to follow (`-L`).
    let follows: Bool
    /// The redirect responses seen, first to last.
    private let seen = Mutex<[HTTPResponse]>([])

    /// A recorder that follows redirects when `follows`.
    init(follows: Bool) {
        self.follows = follows
    }

    /// The redirect responses that were followed, first to last.
    var followedResponses: [HTTPResponse] {
        seen.withLock { $0 }
    }

    /// Records a followed redirect and sends the next request; without `-L`, stops.
    func request(
        _ request: Request, willBeRedirectedTo newRequest: HTTPRequest, for response: HTTPResponse,
        completion: @escaping @Sendable (HTTPRequest?) -> Void
    ) {
        guard follows else { return completion(nil) }
        seen.withLock { $0.append(response) }
        completion(newRequest)
    }
}
