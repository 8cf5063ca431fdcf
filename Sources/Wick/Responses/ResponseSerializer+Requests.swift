// The ResponseSerializer overloads through which `.data`, `.string`, `.json()` and
// `.decodable(of:)` resolve for data requests and downloads alike, as in Alamofire.
public import Dispatch

extension DataRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the response
    /// serialized by `responseSerializer` (`.string`, `.decodable(of:)`, ...), and starts the
    /// request. The same as the `DataResponseSerializerProtocol` form.
    @discardableResult
    public func response<Serializer: ResponseSerializer>(
        queue: DispatchQueue? = nil, responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        response(queue: queue, dataSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// The response serialized by `serializer` (`.string`, `.decodable(of:)`, ...), to await;
    /// starts the request. The same as the `DataResponseSerializerProtocol` form.
    /// - Parameters:
    ///   - serializer: what turns the finished response into the value.
    ///   - automaticallyCancelling: cancel the request when the awaiting task is.
    public func serializingResponse<Serializer: ResponseSerializer>(
        using serializer: Serializer, automaticallyCancelling: Bool = false
    ) -> DataTask<Serializer.SerializedObject> {
        serializingResponse(dataSerializer: serializer, automaticallyCancelling: automaticallyCancelling)
    }
}

extension DownloadRequest {
    /// Calls `completionHandler` on `queue` (nil: `session.responseQueue`) with the file
    /// serialized by `responseSerializer` (`.string`, `.decodable(of:)`, ...), and starts the
    /// request. The same as the `DownloadResponseSerializerProtocol` form.
    @discardableResult
    public func response<Serializer: ResponseSerializer>(
        queue: DispatchQueue? = nil, responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (DownloadResponse<Serializer.SerializedObject, WickError>) -> Void
    ) -> Self {
        response(queue: queue, downloadSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// The file serialized by `serializer` (`.string`, `.decodable(of:)`, ...), to await;
    /// starts the request. The same as the `DownloadResponseSerializerProtocol` form.
    /// - Parameters:
    ///   - serializer: what turns the finished download into the value.
    ///   - automaticallyCancelling: cancel the download when the awaiting task is.
    public func serializingDownload<Serializer: ResponseSerializer>(
        using serializer: Serializer, automaticallyCancelling: Bool = false
    ) -> DownloadTask<Serializer.SerializedObject> {
        serializingDownload(downloadSerializer: serializer, automaticallyCancelling: automaticallyCancelling)
    }
}
