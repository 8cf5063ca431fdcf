// Deciding each redirect: Alamofire's RedirectHandler, and its Redirector.
/// Decides what happens when a response redirects (Alamofire's `RedirectHandler`). Wick has
/// already built the next request by RFC 9110's rules (method, body, fields dropped across
/// origins); the handler may send it, change it, or stop.
public protocol RedirectHandler: Sendable {
    /// Calls `completion` once with the request to send next, or nil to stop and deliver
    /// `response` (the redirect itself) as the final response.
    func request(
        _ request: Request, willBeRedirectedTo newRequest: HTTPRequest, for response: HTTPResponse,
        completion: @escaping @Sendable (HTTPRequest?) -> Void)
}

/// A `RedirectHandler` with a fixed behaviour (Alamofire's `Redirector`).
public struct Redirector: RedirectHandler {
    /// What to do with a redirect.
    public enum Behavior: Sendable {
        /// Send the next request as Wick built it.
        case follow
        /// Stop: the redirect response is the final response.
        case doNotFollow
        /// Send what the closure returns, or stop when it returns nil.
        case modify(@Sendable (Request, HTTPRequest, HTTPResponse) -> HTTPRequest?)
    }

    /// Follows every redirect (the default of `Session`).
    public static let follow = Redirector(behavior: .follow)
    /// Follows no redirect.
    public static let doNotFollow = Redirector(behavior: .doNotFollow)

    /// This redirector's behaviour.
    public let behavior: Behavior

    /// A redirector with `behavior`.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }

    /// Follows, stops, or asks the closure.
    public func request(
        _ request: Request, willBeRedirectedTo newRequest: HTTPRequest, for response: HTTPResponse,
        completion: @escaping @Sendable (HTTPRequest?) -> Void
    ) {
        switch behavior {
        case .follow: completion(newRequest)
        case .doNotFollow: completion(nil)
        case .modify(let closure): completion(closure(request, newRequest, response))
        }
    }
}

extension RedirectHandler where Self == Redirector {
    /// Follows every redirect: `request.redirect(using: .follow)`.
    public static var follow: Redirector { Redirector(behavior: .follow) }
    /// Follows no redirect: `request.redirect(using: .doNotFollow)`.
    public static var doNotFollow: Redirector { Redirector(behavior: .doNotFollow) }
}
