// Alamofire's closure types and static factories for adapters, retriers and interceptors.

/// A closure adapting a request (Alamofire's `AdaptHandler`): the request, the session, and the
/// completion to call once.
public typealias AdaptHandler =
    @Sendable (HTTPRequest, Session, @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void) -> Void

/// A closure deciding a retry (Alamofire's `RetryHandler`): the request, the session, the error,
/// and the completion to call once.
public typealias RetryHandler =
    @Sendable (Request, Session, any Error, @escaping @Sendable (RetryResult) -> Void) -> Void

extension RequestAdapter where Self == Adapter {
    /// An `Adapter` running `closure`: `interceptor: .adapter { request, session, completion in ... }`.
    public static func adapter(using closure: @escaping AdaptHandler) -> Adapter {
        Adapter(closure)
    }
}

extension RequestRetrier where Self == Retrier {
    /// A `Retrier` running `closure`.
    public static func retrier(using closure: @escaping RetryHandler) -> Retrier {
        Retrier(closure)
    }
}

extension RequestInterceptor where Self == Interceptor {
    /// An `Interceptor` of an adapting and a retrying closure.
    public static func interceptor(adapter: @escaping AdaptHandler, retrier: @escaping RetryHandler) -> Interceptor {
        Interceptor(adaptHandler: adapter, retryHandler: retrier)
    }

    /// An `Interceptor` of one adapter and one retrier.
    public static func interceptor(adapter: any RequestAdapter, retrier: any RequestRetrier) -> Interceptor {
        Interceptor(adapter: adapter, retrier: retrier)
    }

    /// An `Interceptor` of these adapters and retriers; `interceptors` join both lists after them.
    public static func interceptor(
        adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = [],
        interceptors: [any RequestInterceptor] = []
    ) -> Interceptor {
        Interceptor(adapters: adapters, retriers: retriers, interceptors: interceptors)
    }
}
