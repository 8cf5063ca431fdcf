// How far an upload or download has come: bytes done and, when known, the total.
/// The progress of a transfer (`UploadRequest.uploadProgress`, `DownloadRequest
/// .downloadProgress`): Foundation's `Progress` is not in FoundationEssentials, and a value is
/// all a handler needs.
public struct TransferProgress: Sendable, Equatable, CustomStringConvertible {
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// The transfer's size, when known (a `Content-Length`, a file's size); nil otherwise.
    public var totalBytes: Int64?

    /// A progress value.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` in 0...1, or nil when the total is unknown (1 for an empty
    /// transfer).
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// `524288 of 1048576 bytes (50%)`, or `524288 bytes` when the total is unknown.
    public var description: String {
        guard let totalBytes, let fraction = fractionCompleted else { return "\(completedBytes) bytes" }
        return "\(completedBytes) of \(totalBytes) bytes (\(Int(fraction * 100))%)"
    }
}
