// How far one transfer has come: the bytes received and sent, and the totals when known.

/// The counts a progress meter or bar draws.
public struct TransferProgress: Equatable, Sendable {
    /// Body bytes received so far.
    public var downloaded = 0
    /// The body's size, when the response said it (Content-Length); nil: unknown.
    public var expectedDownload: Int?
    /// Request body bytes sent so far.
    public var uploaded = 0
    /// The request body's size, when there is one; nil: none.
    public var expectedUpload: Int?

    /// Counts of `downloaded` of `expectedDownload` received and `uploaded` of `expectedUpload` sent.
    public init(downloaded: Int = 0, expectedDownload: Int? = nil, uploaded: Int = 0, expectedUpload: Int? = nil) {
        self.downloaded = downloaded
        self.expectedDownload = expectedDownload
        self.uploaded = uploaded
        self.expectedUpload = expectedUpload
    }
}
