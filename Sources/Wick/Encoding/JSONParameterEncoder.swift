// Encodes an Encodable value as the JSON body of a request, as Alamofire's JSONParameterEncoder.
public import FoundationEssentials

/// A `ParameterEncoder` that writes the parameters with a `JSONEncoder` as the request's body,
/// and sets `Content-Type: application/json` unless the request has a `Content-Type`.
public struct JSONParameterEncoder: ParameterEncoder {
    /// An encoder with a plain `JSONEncoder` (compact output, keys in encoding order).
    public static var `default`: JSONParameterEncoder { JSONParameterEncoder() }

    /// An encoder whose `JSONEncoder` writes `.prettyPrinted` output.
    public static var prettyPrinted: JSONParameterEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .prettyPrinted
        return JSONParameterEncoder(encoder: encoder)
    }

    /// An encoder whose `JSONEncoder` writes `.sortedKeys` output.
    public static var sortedKeys: JSONParameterEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONParameterEncoder(encoder: encoder)
    }

    /// The `JSONEncoder` used. Configure it before handing it over: it is shared with every
    /// request this parameter encoder encodes.
    public let encoder: JSONEncoder

    /// An encoder writing with `encoder`.
    public init(encoder: JSONEncoder = JSONEncoder()) {
        self.encoder = encoder
    }

    /// `request` with the JSON of `parameters` as its body (replacing any body), and
    /// `Content-Type: application/json` unless it has a `Content-Type`; unchanged when
    /// `parameters` is nil.
    /// - Throws: `WickError.parameterEncodingFailed(reason: .jsonEncodingFailed(error:))` with the
    ///   `JSONEncoder`'s error (an invalid value such as a NaN, or an error from `encode(to:)`).
    public func encode<Parameters: Encodable & Sendable>(
        _ parameters: Parameters?, into request: HTTPRequest
    ) throws(WickError) -> HTTPRequest {
        guard let parameters else { return request }
        var request = request
        do {
            request.body = try encoder.encode(parameters)
        } catch {
            throw .parameterEncodingFailed(reason: .jsonEncodingFailed(error: error))
        }
        request.setContentTypeIfAbsent("application/json")
        return request
    }
}
