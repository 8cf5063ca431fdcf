// The body as text, in the encoding given, else the response's charset, else UTF-8 or Latin-1.
public import FoundationEssentials

/// Decodes the body as a `String` (Alamofire's `StringResponseSerializer`), after
/// `dataPreprocessor`. The encoding is, in order:
/// 1. `encoding`, when given;
/// 2. the `charset` parameter of the response's `Content-Type`, when it names an encoding
///    FoundationEssentials decodes: UTF-8, US-ASCII, ISO-8859-1 (latin1), UTF-16 (with a byte
///    order mark, else big-endian), UTF-16BE/LE, UTF-32, UTF-32BE/LE, under any of their IANA
///    names;
/// 3. otherwise (no charset, or one FoundationEssentials does not decode, such as
///    windows-1252): UTF-8 if the body is valid UTF-8, else ISO-8859-1, which decodes any bytes.
///    Alamofire falls back to ISO-8859-1 alone, HTTP/1.1's old default that RFC 9110 dropped;
///    UTF-8 first reads JSON and modern text right and ASCII the same.
///
/// An empty body gives `""` where the status or method allows it, else
/// `responseSerializationFailed(reason: .inputDataNilOrZeroLength)`.
public struct StringResponseSerializer: ResponseSerializer {
    /// The encodings a `charset` may select: those FoundationEssentials can decode.
    static let decodableEncodings: Set<String.Encoding> = [
        .utf8, .ascii, .isoLatin1, .utf16, .utf16BigEndian, .utf16LittleEndian, .utf32, .utf32BigEndian,
        .utf32LittleEndian,
    ]

    /// What changes a non-empty body first.
    public let dataPreprocessor: any DataPreprocessor
    /// The encoding that overrides the response's charset; nil to follow the response.
    public let encoding: String.Encoding?
    /// Statuses whose empty body is not an error.
    public let emptyResponseCodes: Set<Int>
    /// Methods whose empty body is not an error.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// A serializer with these settings.
    /// - Parameters:
    ///   - dataPreprocessor: what changes a non-empty body before it is decoded.
    ///   - encoding: decode with this encoding whatever the response says; nil (the default)
    ///     follows the response's charset, then the fallback.
    ///   - emptyResponseCodes: statuses whose empty body gives `""` rather than an error.
    ///   - emptyRequestMethods: methods whose empty body gives `""` rather than an error.
    public init(
        dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
        encoding: String.Encoding? = nil,
        emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods
    ) {
        self.dataPreprocessor = dataPreprocessor
        self.encoding = encoding
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The body as text.
    /// - Throws: `error` when given; `responseSerializationFailed` with
    ///   `.inputDataNilOrZeroLength`, or `.stringSerializationFailed(encoding:)` when the body is
    ///   not valid in the encoding given or named by the charset; the preprocessor's error.
    public func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?)
        throws(WickError)
        -> String
    {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyResponseAllowed(request: request, response: response) else {
                throw .responseSerializationFailed(reason: .inputDataNilOrZeroLength)
            }
            return ""
        }
        let text = try preprocessed(data)
        if let chosen = encoding ?? Self.charsetEncoding(of: response) {
            guard let string = String(data: text, encoding: chosen) else {
                throw .responseSerializationFailed(reason: .stringSerializationFailed(encoding: chosen))
            }
            return string
        }
        return String(validating: text, as: UTF8.self) ?? Self.latin1(text)
    }

    /// The encoding the response's `Content-Type` charset names, if FoundationEssentials decodes it.
    static func charsetEncoding(of response: HTTPResponse?) -> String.Encoding? {
        guard let field = response?.headers.value(for: "Content-Type"),
            let charset = MIMEType(field)?.parameter("charset"),
            let encoding = String.Encoding(ianaName: charset),
            decodableEncodings.contains(encoding)
        else { return nil }
        return encoding
    }

    /// ISO-8859-1: every byte is the code point of the same value.
    private static func latin1(_ data: Data) -> String {
        String(String.UnicodeScalarView(data.lazy.map { Unicode.Scalar($0) }))
    }
}

extension ResponseSerializer where Self == StringResponseSerializer {
    /// `StringResponseSerializer()`, for `response(responseSerializer: .string)`.
    public static var string: StringResponseSerializer { StringResponseSerializer() }

    /// A `StringResponseSerializer` with these settings.
    public static func string(
        dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
        encoding: String.Encoding? = nil,
        emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods
    ) -> StringResponseSerializer {
        StringResponseSerializer(
            dataPreprocessor: dataPreprocessor, encoding: encoding, emptyResponseCodes: emptyResponseCodes,
            emptyRequestMethods: emptyRequestMethods)
    }
}
