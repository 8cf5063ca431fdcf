// A download's file as text or decoded into a Decodable type, with async forms: the data
// serializers, fed the file.
public import Dispatch
public import FoundationEssentials

extension DownloadRequest {
    /// Calls `completionHandler` on `queue` with the file as text (see `StringResponseSerializer`
    /// for how the encoding is chosen), and starts the request. The file is read whole, on `queue`.
    /// - Parameters:
    ///   - queue: where the file is read and `completionHandler` runs; nil (the default) is
    ///     `session.responseQueue`.
    ///   - dataPreprocessor: what changes a non-empty file before it is decoded.
    ///   - encoding: decode with this encoding, whatever the response's charset; nil (the
    ///     default) follows the charset.
    ///   - emptyResponseCodes: statuses whose empty file gives `""` rather than an error.
    ///   - emptyRequestMethods: methods whose empty file gives `""` rather than an error.
    ///   - completionHandler: receives the text, or the download's or the decoding's `WickError`.
    @discardableResult
    public func responseString(
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
        encoding: String.Encoding? = nil,
        emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DownloadResponse<String, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            downloadSerializer: StringResponseSerializer(
                dataPreprocessor: dataPreprocessor, encoding: encoding, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file decoded
    /// into `type` by `decoder` (see `DecodableResponseSerializer`), and starts the request. The
    /// file is read whole, on `queue`.
    @discardableResult
    public func responseDecodable<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self,
        queue: DispatchQueue? = nil,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (DownloadResponse<Value, WickError>) -> Void
    ) -> Self {
        response(
            queue: queue,
            downloadSerializer: DecodableResponseSerializer<Value>(
                dataPreprocessor: dataPreprocessor, decoder: decoder, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            completionHandler: completionHandler)
    }

    /// The file as text, to await (`.value`, `.result`, `.response`); starts the request.
    /// - Parameters:
    ///   - automaticallyCancelling: cancel the download when the awaiting task is.
    ///   - dataPreprocessor: what changes a non-empty file before it is decoded.
    ///   - encoding: decode with this encoding, whatever the response's charset; nil (the
    ///     default) follows the charset.
    ///   - emptyResponseCodes: statuses whose empty file gives `""` rather than an error.
    ///   - emptyRequestMethods: methods whose empty file gives `""` rather than an error.
    public func serializingString(
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
        encoding: String.Encoding? = nil,
        emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods
    ) -> DownloadTask<String> {
        serializingDownload(
            downloadSerializer: StringResponseSerializer(
                dataPreprocessor: dataPreprocessor, encoding: encoding, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }

    /// The file decoded into `type`, to await; starts the request.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - automaticallyCancelling: cancel the download when the awaiting task is.
    ///   - dataPreprocessor: what changes a non-empty file before it is decoded.
    ///   - decoder: what decodes the file (a `JSONDecoder` by default).
    ///   - emptyResponseCodes: statuses whose empty file is not an error (see
    ///     `DecodableResponseSerializer` for the value it gives).
    ///   - emptyRequestMethods: methods whose empty file is not an error.
    public func serializingDecodable<Value: Decodable & Sendable>(
        _ type: Value.Type = Value.self,
        automaticallyCancelling: Bool = false,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods
    ) -> DownloadTask<Value> {
        serializingDownload(
            downloadSerializer: DecodableResponseSerializer<Value>(
                dataPreprocessor: dataPreprocessor, decoder: decoder, emptyResponseCodes: emptyResponseCodes,
                emptyRequestMethods: emptyRequestMethods),
            automaticallyCancelling: automaticallyCancelling)
    }
}
