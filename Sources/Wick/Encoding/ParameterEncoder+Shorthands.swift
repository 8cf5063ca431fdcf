// `.json` and `.urlEncodedForm` where a ParameterEncoder is expected, as in Alamofire.
public import FoundationEssentials

extension ParameterEncoder where Self == JSONParameterEncoder {
    /// A `JSONParameterEncoder` with a plain `JSONEncoder`.
    public static var json: JSONParameterEncoder { JSONParameterEncoder() }

    /// A `JSONParameterEncoder` writing with `encoder`.
    public static func json(encoder: JSONEncoder = JSONEncoder()) -> JSONParameterEncoder {
        JSONParameterEncoder(encoder: encoder)
    }
}

extension ParameterEncoder where Self == URLEncodedFormParameterEncoder {
    /// A `URLEncodedFormParameterEncoder` with a default encoder and a `.methodDependent` destination.
    public static var urlEncodedForm: URLEncodedFormParameterEncoder { URLEncodedFormParameterEncoder() }

    /// A `URLEncodedFormParameterEncoder` writing with `encoder` to `destination`.
    public static func urlEncodedForm(
        encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(),
        destination: URLEncodedFormParameterEncoder.Destination = .methodDependent
    ) -> URLEncodedFormParameterEncoder {
        URLEncodedFormParameterEncoder(encoder: encoder, destination: destination)
    }
}
