// The response head a `DataResponse` carries: status, headers, version, the URL it answered.
public import FoundationEssentials

/// The head of a response: what `DataResponse.response` holds.
public struct HTTPResponse: Sendable {
    /// The final status (interim 1xx responses are not reported).
    public var status: HTTPStatus
    /// The header fields, in the order received.
    public var headers: HTTPHeaders
    /// The version the server answered with.
    public var version: HTTPVersion
    /// Trailer fields of a chunked response, if it had some.
    public var trailers: HTTPHeaders?
    /// The URL of the request this answers (`HTTPURLResponse.url`): after redirects, the last
    /// hop's, so `response.response?.url` is where the body came from. Nil for a value made
    /// without one.
    public var url: URL?

    /// A response head value.
    public init(
        status: HTTPStatus, headers: HTTPHeaders, version: HTTPVersion, trailers: HTTPHeaders? = nil, url: URL? = nil
    ) {
        self.status = status
        self.headers = headers
        self.version = version
        self.trailers = trailers
        self.url = url
    }

    /// The status code, e.g. 200 (`statusCode` as on `HTTPURLResponse`).
    public var statusCode: Int { status.rawValue }
}

extension HTTPResponse {
    /// The head of a transport response to a request for `url`.
    init(_ response: borrowing TransportResponse, url: URL?) {
        self.init(
            status: response.status, headers: response.headers, version: response.version, trailers: response.trailers,
            url: url)
    }
}
