// How far a transfer is: bytes done and, when known, bytes in all (Foundation's Progress, as a value).
/// How far a download or upload has come: a value, reported to `downloadProgress` and
/// `uploadProgress` handlers.
/// FoundationEssentials has no `Progress`; this carries what Alamofire's handlers read from it.
public struct TransferProgress: Sendable, Equatable, CustomStringConvertible {
    /// Bytes done so far. For a resumed download this counts the bytes already on disk.
    public let completedBytes: Int64
    /// Bytes in all, when known (a `Content-Length`, or a `Content-Range` total); nil otherwise.
    public let totalBytes: Int64?

    /// A progress value.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes`, between 0 and 1; 0 while the total is unknown, 1 for an
    /// empty total.
    public var fractionCompleted: Double {
        guard let totalBytes else { return 0 }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// Whether every byte of a known total is done.
    public var isFinished: Bool {
        totalBytes.map { completedBytes >= $0 } ?? false
    }

    /// `1048576 of 10485760 bytes`, or `1048576 bytes` while the total is unknown.
    public var description: String {
        totalBytes.map { "\(completedBytes) of \($0) bytes" } ?? "\(completedBytes) bytes"
    }
}
