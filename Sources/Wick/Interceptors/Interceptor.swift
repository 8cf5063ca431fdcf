// Adapters and retriers composed in order: Alamofire's Interceptor.
/// Runs several adapters and retriers as one (Alamofire's `Interceptor`). Adapters run in order,
/// each on the previous one's output, and the first failure stops them. Retriers are asked in
/// order until one asks for a retry or fails with an error; if none does, the request is not
/// retried.
public struct Interceptor: RequestInterceptor {
    /// The adapters, in the order they run.
    public let adapters: [any RequestAdapter]
    /// The retriers, in the order they are asked.
    public let retriers: [any RequestRetrier]

    /// Composes adapters and retriers; `interceptors` join both lists after them.
    public init(
        adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = [],
        interceptors: [any RequestInterceptor] = []
    ) {
        self.adapters = adapters + interceptors
        self.retriers = retriers + interceptors
    }

    /// One adapter and one retrier.
    public init(adapter: any RequestAdapter, retrier: any RequestRetrier) {
        self.init(adapters: [adapter], retriers: [retrier])
    }

    /// An adapter and a retrier made of closures.
    public init(adaptHandler: @escaping AdaptHandler, retryHandler: @escaping RetryHandler) {
        self.init(adapter: Adapter(adaptHandler), retrier: Retrier(retryHandler))
    }

    /// Whether every adapter completes without blocking.
    public var adaptsWithoutBlocking: Bool { adapters.allSatisfy(\.adaptsWithoutBlocking) }

    /// Runs the adapters in order.
    public func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        Self.adapt(request, adapters[...], completion: completion) { $0.adapt($1, for: session, completion: $2) }
    }

    /// Runs the adapters in order, passing each the request's state.
    public func adapt(
        _ request: HTTPRequest, using state: RequestAdapterState,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        Self.adapt(request, adapters[...], completion: completion) { $0.adapt($1, using: state, completion: $2) }
    }

    /// Asks the retriers in order.
    public func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        Self.retry(request, for: session, dueTo: error, using: retriers[...], completion: completion)
    }

    /// Runs `adapters` in order, each by `step` on the previous one's output, until one fails.
    private static func adapt(
        _ request: HTTPRequest, _ adapters: ArraySlice<any RequestAdapter>,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void,
        step: @escaping @Sendable (
            any RequestAdapter, HTTPRequest, @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
        ) -> Void
    ) {
        guard let first = adapters.first else { return completion(.success(request)) }
        step(first, request) { result in
            switch result {
            case .success(let adapted): adapt(adapted, adapters.dropFirst(), completion: completion, step: step)
            case .failure: completion(result)
            }
        }
    }

    private static func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        using retriers: ArraySlice<any RequestRetrier>, completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        guard let first = retriers.first else { return completion(.doNotRetry) }
        first.retry(request, for: session, dueTo: error) { result in
            if case .doNotRetry = result {
                retry(request, for: session, dueTo: error, using: retriers.dropFirst(), completion: completion)
            } else {
                completion(result)
            }
        }
    }
}

/// An adapter made of a closure (Alamofire's `Adapter`).
public struct Adapter: RequestInterceptor {
    /// The closure's shape (`AdaptHandler`).
    public typealias Handler = AdaptHandler

    private let handler: Handler

    /// An adapter that runs `handler`.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// Runs the closure.
    public func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        handler(request, session, completion)
    }
}

/// A retrier made of a closure (Alamofire's `Retrier`).
public struct Retrier: RequestInterceptor {
    /// The closure's shape (`RetryHandler`).
    public typealias Handler = RetryHandler

    private let handler: Handler

    /// A retrier that runs `handler`.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// Runs the closure.
    public func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        handler(request, session, error, completion)
    }
}
