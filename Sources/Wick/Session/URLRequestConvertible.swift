// Types that build a whole request (routers): Alamofire's URLRequestConvertible.
/// A value that builds a whole request for `Session.request(_:interceptor:)`, such as an API
/// router enum (Alamofire's `URLRequestConvertible`, producing Wick's `HTTPRequest`).
public protocol URLRequestConvertible: Sendable {
    /// The request.
    /// - Throws: any error; a `WickError` fails the request as it is, another becomes
    ///   `WickError.invalidURL`.
    func asURLRequest() throws -> HTTPRequest
}

extension URLRequestConvertible {
    /// `asURLRequest()` as a result: a `WickError` thrown as it is, any other error as
    /// `createURLRequestFailed` (Alamofire's wrapping). How `request`, `download` and
    /// `streamRequest` take a router.
    var builtRequest: Result<HTTPRequest, WickError> {
        do {
            return .success(try asURLRequest())
        } catch let error as WickError {
            return .failure(error)
        } catch {
            return .failure(.createURLRequestFailed(error: error))
        }
    }
}

extension HTTPRequest: URLRequestConvertible {
    /// The request itself.
    public func asURLRequest() throws -> HTTPRequest { self }
}

extension HTTPRequest {
    /// A request to `url` with no body (Alamofire's `URLRequest(url:method:headers:)`).
    /// - Throws: `WickError.invalidURL` when `url` gives no URL.
    public init(url: some URLConvertible, method: HTTPMethod, headers: HTTPHeaders? = nil) throws(WickError) {
        self.init(method: method, url: try url.asURL(), headers: headers ?? HTTPHeaders(), body: nil)
    }
}
