// Deciding what a cache stores: Alamofire's CachedResponseHandler, and its ResponseCacher.

/// Decides, for each response RFC 9111 allows a session's cache to store, whether it is stored
/// and in what form (Alamofire's `CachedResponseHandler`). Set for a session
/// (`Session(cachedResponseHandler:)`) or one request (`Request.cacheResponse(using:)`,
/// which wins). Called on `Session.rootQueue`, except for `ResponseCacher.cache`, which Wick
/// applies where the response arrives without a hop.
public protocol CachedResponseHandler: Sendable {
    /// Calls `completion` once with the response to store (`response`, or a changed one), or
    /// nil to store nothing. The response is delivered to the request whatever is decided;
    /// only the store waits for the answer.
    func request(
        _ request: Request, willCacheResponse response: CachedResponse,
        completion: @escaping @Sendable (CachedResponse?) -> Void)
}

/// A `CachedResponseHandler` with a fixed behaviour (Alamofire's `ResponseCacher`).
public struct ResponseCacher: CachedResponseHandler {
    /// What to do with a response the cache may store.
    public enum Behavior: Sendable {
        /// Store it as it is.
        case cache
        /// Store nothing.
        case doNotCache
        /// Store what the closure returns (nothing when it returns nil).
        case modify(@Sendable (Request, CachedResponse) -> CachedResponse?)
    }

    /// Stores every storable response: the default of `Session`.
    public static let cache = ResponseCacher(behavior: .cache)
    /// Stores nothing.
    public static let doNotCache = ResponseCacher(behavior: .doNotCache)

    /// This cacher's behaviour.
    public let behavior: Behavior

    /// A cacher with `behavior`.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }

    /// Stores, refuses, or asks the closure.
    public func request(
        _ request: Request, willCacheResponse response: CachedResponse,
        completion: @escaping @Sendable (CachedResponse?) -> Void
    ) {
        switch behavior {
        case .cache: completion(response)
        case .doNotCache: completion(nil)
        case .modify(let closure): completion(closure(request, response))
        }
    }

    /// Whether this handler stores every response as it is, so the session may store it
    /// without a hop to the root queue.
    var storesUnchanged: Bool {
        if case .cache = behavior { true } else { false }
    }
}

extension CachedResponseHandler where Self == ResponseCacher {
    /// `ResponseCacher.cache`, as `.cache` where a handler is expected.
    public static var cache: ResponseCacher { ResponseCacher.cache }
    /// `ResponseCacher.doNotCache`, as `.doNotCache` where a handler is expected.
    public static var doNotCache: ResponseCacher { ResponseCacher.doNotCache }
    /// A `ResponseCacher` that stores what `closure` returns, as `.modify { ... }`.
    public static func modify(using closure: @escaping @Sendable (Request, CachedResponse) -> CachedResponse?) -> ResponseCacher {
        ResponseCacher(behavior: .modify(closure))
    }
}
