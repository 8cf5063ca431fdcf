// The precise cause behind a multipart read or write failure: a system call and errno, or a size that changed.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import WickReactor

/// What went wrong reading a body part or writing the encoded body, carried by
/// `MultipartEncodingFailureReason.inputStreamReadFailed`, `.outputStreamCreationFailed` and
/// `.outputStreamWriteFailed`.
public enum MultipartIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `call` (`open`, `fstat`, `read`, `write`, `close`) on `path` failed with `errno`.
    case systemCallFailed(call: String, path: String, errno: Int32)
    /// The file at `path` has `actual` bytes, but had `expected` when it was appended; the
    /// `Content-Length` already promised `expected`, so the body cannot be sent.
    case fileSizeChanged(path: String, expected: UInt64, actual: UInt64)
    /// The stream of the part named `name` ended after `produced` bytes, or went on past them,
    /// where its `MultipartStreamSource.length` promised `expected`.
    case streamLengthMismatch(name: String, expected: UInt64, produced: UInt64)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .systemCallFailed(let call, let path, let code):
            "\(call) \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .fileSizeChanged(let path, let expected, let actual):
            "\(path) has \(actual) bytes, but had \(expected) when it was appended"
        case .streamLengthMismatch(let name, let expected, let produced) where produced < expected:
            "the stream of part \(name.debugDescription) ended after \(produced) of its \(expected) bytes"
        case .streamLengthMismatch(let name, let expected, _):
            "the stream of part \(name.debugDescription) went on past its \(expected) bytes"
        }
    }
}

extension MultipartIOError {
    /// The public form of a failed file call: `systemCallFailed` with its call, path and errno.
    init(_ error: FileIOError) {
        self = .systemCallFailed(call: error.call, path: error.path, errno: error.errno)
    }
}
