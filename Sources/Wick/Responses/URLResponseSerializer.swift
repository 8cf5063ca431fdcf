// A download's file URL as its value: Alamofire's URLResponseSerializer.
public import FoundationEssentials

/// Hands over the downloaded file's URL (Alamofire's `URLResponseSerializer`), after checking
/// that the request did not fail.
public struct URLResponseSerializer: DownloadResponseSerializerProtocol {
    /// A serializer.
    public init() {}

    /// The file's URL.
    /// - Throws: `error` when given; `responseSerializationFailed(reason: .inputFileNil)` when
    ///   there is no file.
    public func serializeDownload(request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, error: WickError?)
        throws(WickError) -> URL
    {
        if let error { throw error }
        guard let fileURL else { throw .responseSerializationFailed(reason: .inputFileNil) }
        return fileURL
    }
}

extension DownloadResponseSerializerProtocol where Self == URLResponseSerializer {
    /// `URLResponseSerializer()`, for `response(responseSerializer: .url)`.
    public static var url: URLResponseSerializer { URLResponseSerializer() }
}
