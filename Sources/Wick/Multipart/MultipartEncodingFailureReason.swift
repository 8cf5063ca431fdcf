// Why a `MultipartFormData` could not be encoded, as Alamofire's MultipartEncodingFailureReason.
public import FoundationEssentials

/// Why a `MultipartFormData` body could not be encoded (`WickError.multipartEncodingFailed`).
///
/// The `bodyPart...` reasons come from an `append` call: `append` never throws, it records the
/// first problem, leaves that part out, and `encode()`, `writeEncodedData(to:)` and `makeReader()`
/// throw it. The others happen while the body is being encoded.
public enum MultipartEncodingFailureReason: Sendable, CustomStringConvertible {
    /// The URL given to `append(_:withName:...)` is not a `file:` URL.
    case bodyPartURLInvalid(url: URL)
    /// The file URL's last path component cannot be a file name (empty, `/`, `.` or `..`).
    case bodyPartFilenameInvalid(in: URL)
    /// Nothing exists at the file URL.
    case bodyPartFileNotReachable(at: URL)
    /// The file URL names a directory.
    case bodyPartFileIsDirectory(at: URL)
    /// The file exists but this process may not read it.
    case bodyPartFileNotReadable(at: URL)
    /// The file's size is not known in advance: it is not a regular file (a FIFO, a device, a
    /// socket), or the file system reported no size.
    case bodyPartFileSizeNotAvailable(at: URL)
    /// Asking the file system for the file's attributes failed with `error`.
    case bodyPartFileSizeQueryFailedWithError(forURL: URL, error: any Error)
    /// A part's `mimeType` contains a control character (CR, LF, NUL...), which would end the
    /// part's `Content-Type` line and let the value inject headers.
    case bodyPartMimeTypeInvalid(mimeType: String)
    /// The boundary given to `init(fileManager:boundary:)` is not 1 to 70 characters from
    /// `A-Z a-z 0-9 ' + _ - .` (RFC 2046's boundary characters that need no quoting in
    /// `Content-Type`).
    case boundaryInvalid(boundary: String)
    /// Reading a part's bytes failed: `error` is a `MultipartIOError` (a file that can no longer
    /// be opened or read, or whose size changed since `append`; a stream that produced more or
    /// fewer bytes than its length) or the error a `MultipartStreamSource`'s stream threw.
    case inputStreamReadFailed(error: any Error)
    /// `writeEncodedData(to:)` was given a URL that is not a `file:` URL.
    case outputStreamURLInvalid(url: URL)
    /// `writeEncodedData(to:)` refuses to replace a file that already exists.
    case outputStreamFileAlreadyExists(at: URL)
    /// `writeEncodedData(to:)` could not create the file (`error` says which call and errno).
    case outputStreamCreationFailed(for: URL, error: MultipartIOError)
    /// Writing the encoded body to the file failed (`error` says which call and errno); the
    /// partial file was removed.
    case outputStreamWriteFailed(error: MultipartIOError)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .bodyPartURLInvalid(let url): "the body part URL is not a file URL: \(url)"
        case .bodyPartFilenameInvalid(let url): "the body part URL has no usable file name: \(url)"
        case .bodyPartFileNotReachable(let url): "the body part file does not exist: \(url.path)"
        case .bodyPartFileIsDirectory(let url): "the body part file is a directory: \(url.path)"
        case .bodyPartFileNotReadable(let url): "the body part file is not readable: \(url.path)"
        case .bodyPartFileSizeNotAvailable(let url):
            "the body part file's size is not known (not a regular file): \(url.path)"
        case .bodyPartFileSizeQueryFailedWithError(let url, let error):
            "the body part file's attributes could not be read: \(url.path): \(error)"
        case .bodyPartMimeTypeInvalid(let mimeType):
            "the body part MIME type contains a control character: \(mimeType.debugDescription)"
        case .boundaryInvalid(let boundary): "the multipart boundary is not valid: \(boundary.debugDescription)"
        case .inputStreamReadFailed(let error): "reading a body part failed: \(error)"
        case .outputStreamURLInvalid(let url): "the output URL is not a file URL: \(url)"
        case .outputStreamFileAlreadyExists(let url): "the output file already exists: \(url.path)"
        case .outputStreamCreationFailed(let url, let error):
            "the output file could not be created: \(url.path): \(error)"
        case .outputStreamWriteFailed(let error): "writing the encoded body failed: \(error)"
        }
    }
}
