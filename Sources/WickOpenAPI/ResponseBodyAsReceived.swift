// The serializer WickClientTransport awaits a request with: the body as received, nothing judged.
import FoundationEssentials
import Wick

/// Hands over the response body as received (nil when no response arrived or the body was
/// empty): an OpenAPI transport returns every status and body, and the generated client decides
/// what they mean, so an empty body is no failure here, unlike `serializingData()`'s.
struct ResponseBodyAsReceived: DataResponseSerializerProtocol {
    /// `data`, or the request's error.
    /// - Throws: `error` when the request failed.
    func serialize(request: Wick.HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?)
        throws(WickError) -> Data?
    {
        if let error { throw error }
        return data
    }
}
