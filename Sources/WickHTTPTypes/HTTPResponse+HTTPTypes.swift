// Response heads both ways: Wick's HTTPResponse and swift-http-types' HTTPResponse.
public import FoundationEssentials
public import HTTPTypes
public import Wick

extension HTTPTypes.HTTPResponse {
    /// `response` as a swift-http-types response: the status code (with an empty reason phrase:
    /// Wick keeps none) and the fields. Left behind: the version, the trailers (a
    /// separate `HTTPFields`: `HTTPFields(response.trailers)`), and the URL.
    /// - Throws: `WickError.conversionFailed` for a status outside 000–999 or a field name that
    ///   is not a token.
    public init(_ response: Wick.HTTPResponse) throws(WickError) {
        guard (0...999).contains(response.statusCode) else {
            throw .conversionFailed(reason: .invalidStatus(response.statusCode))
        }
        self.init(status: Status(code: response.statusCode), headerFields: try HTTPFields(response.headers))
    }
}

extension Wick.HTTPResponse {
    /// `response` as a Wick response head: the status code and the fields, with `version`
    /// (swift-http-types has none; default HTTP/1.1), `trailers` and the `url` it answered.
    public init(
        _ response: HTTPTypes.HTTPResponse, version: HTTPVersion = .http1_1, trailers: HTTPFields? = nil,
        url: URL? = nil
    ) {
        self.init(
            status: HTTPStatus(rawValue: response.status.code), headers: HTTPHeaders(response.headerFields),
            version: version, trailers: trailers.map(HTTPHeaders.init), url: url)
    }
}
