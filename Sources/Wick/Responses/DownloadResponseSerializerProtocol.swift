// Turning a finished download into a value: the protocol, and the file read for data serializers.
public import FoundationEssentials

/// Turns the parts of a finished download into a value (Alamofire's
/// `DownloadResponseSerializerProtocol`). Every `ResponseSerializer` (`.data`, `.string`,
/// `.decodable(of:)`, `.json()`) is one: it reads the file and serializes its bytes.
public protocol DownloadResponseSerializerProtocol<SerializedObject>: Sendable {
    /// What the serializer produces.
    associatedtype SerializedObject: Sendable

    /// The value for a download, or an error.
    /// - Parameters:
    ///   - request: the last request sent; nil when it could not be built.
    ///   - response: the response's head; nil when none arrived.
    ///   - fileURL: where the file is (its destination); nil when there is none.
    ///   - error: the transport's error, if the request failed; a serializer normally rethrows it.
    /// - Throws: `error` when given, else a `WickError` (or any error, which the request reports
    ///   as `responseSerializationFailed(reason: .customSerializationFailed)`).
    func serializeDownload(request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, error: WickError?) throws
        -> SerializedObject
}

extension DownloadResponseSerializerProtocol where Self: DataResponseSerializerProtocol {
    /// The file's bytes (the whole file in memory), serialized by `serialize(request:response:data:error:)`.
    /// - Throws: `error` when given; `responseSerializationFailed` with `.inputFileNil` (no
    ///   file) or `.inputFileReadFailed(path:)`; whatever `serialize` throws.
    public func serializeDownload(request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, error: WickError?)
        throws -> SerializedObject
    {
        if let error { throw error }
        guard let fileURL else { throw WickError.responseSerializationFailed(reason: .inputFileNil) }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw WickError.responseSerializationFailed(reason: .inputFileReadFailed(path: fileURL.path))
        }
        return try serialize(request: request, response: response, data: data, error: nil)
    }
}
