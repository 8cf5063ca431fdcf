// Encodes an Encodable value as a URL-encoded form, in the query or the body, as Alamofire's encoder.
import FoundationEssentials

/// A `ParameterEncoder` that writes the parameters with a `URLEncodedFormEncoder`, into the URL's
/// query (after any query it has) or as the body, by `destination`. A body gets
/// `Content-Type: application/x-www-form-urlencoded; charset=utf-8` unless the request has a
/// `Content-Type`.
public struct URLEncodedFormParameterEncoder: ParameterEncoder {
    /// Where the encoded form goes (`ParameterDestination`, shared with `URLEncoding`).
    public typealias Destination = ParameterDestination

    /// An encoder with a default `URLEncodedFormEncoder` and a `.methodDependent` destination.
    public static var `default`: URLEncodedFormParameterEncoder { URLEncodedFormParameterEncoder() }

    /// The form encoder used.
    public let encoder: URLEncodedFormEncoder
    /// Where the form goes.
    public let destination: Destination

    /// An encoder writing with `encoder` to `destination`.
    public init(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(), destination: Destination = .methodDependent) {
        self.encoder = encoder
        self.destination = destination
    }

    /// `request` with `parameters` encoded as a form: appended to the URL's query (the URL is
    /// left as it is when the form is empty), or as the body (replacing any body, and setting
    /// the form `Content-Type` unless one is set). Unchanged when `parameters` is nil.
    /// - Throws: `WickError.parameterEncoderFailed` with `.encoderFailed(error:)` when the
    ///   `URLEncodedFormEncoder` throws (the value is not a keyed container, or its encoding
    ///   failed), or `.missingRequiredComponent(.url)` when the URL cannot be rebuilt.
    public func encode<Parameters: Encodable & Sendable>(
        _ parameters: Parameters?, into request: HTTPRequest
    ) throws(WickError) -> HTTPRequest {
        guard let parameters else { return request }
        var request = request
        if destination.encodesParametersInURL(for: request.method) {
            let query: String
            do { query = try encoder.encode(parameters) } catch {
                throw .parameterEncoderFailed(reason: .encoderFailed(error: error))
            }
            guard !query.isEmpty else { return request }
            guard let url = request.url(appendingPercentEncodedQuery: query) else {
                throw .parameterEncoderFailed(reason: .missingRequiredComponent(.url))
            }
            request.url = url
        } else {
            let body: Data
            do { body = try encoder.encode(parameters) } catch {
                throw .parameterEncoderFailed(reason: .encoderFailed(error: error))
            }
            request.body = body
            request.setContentTypeIfAbsent("application/x-www-form-urlencoded; charset=utf-8")
        }
        return request
    }
}
