// Why a `URLEncodedFormParameterEncoder` (or another `ParameterEncoder`) failed.

/// Why an `Encodable` value could not be encoded into a request (`WickError.parameterEncoderFailed`).
public enum ParameterEncoderFailureReason: Sendable, CustomStringConvertible {
    /// A part of the request the encoder needs is missing (`HTTPRequest` always has a method, so
    /// in Wick only the URL can be).
    public enum RequiredComponent: Sendable, Equatable, CustomStringConvertible {
        /// The URL could not be rebuilt with the encoded query.
        case url

        /// `the URL`.
        public var description: String {
            switch self {
            case .url: "the URL"
            }
        }
    }

    /// `component` is missing from the request.
    case missingRequiredComponent(RequiredComponent)
    /// The encoder threw `error`: a `URLEncodedFormEncoder.Error` (the value is not a keyed
    /// container), an `EncodingError` from the value's `encode(to:)`, or an error thrown by a
    /// `.custom` date, data or key encoding.
    case encoderFailed(error: any Error)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .missingRequiredComponent(let component): "the request is missing \(component)"
        case .encoderFailed(let error): "the encoder failed: \(error)"
        }
    }
}
