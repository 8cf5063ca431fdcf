// Why a request head or trailer section was refused, naming the field and the offending byte.
public import WickCore

/// A request the encoder refuses to write: nothing was appended to the buffer.
public enum HTTPRequestEncodingError: Error, Hashable, Sendable {
    /// Which part of the request was at fault. Header indices count the fields of
    /// `HTTPRequestHead.headers` (or of the trailers) from 0.
    public enum Field: Hashable, Sendable {
        /// The method token.
        case method
        /// The request-target.
        case target
        /// `HTTPRequestHead.host` (used when `headers` has no `Host` field).
        case host
        /// The name of the header field at `index`.
        case headerName(index: Int)
        /// The value of the header field at `index`.
        case headerValue(index: Int)
        /// The name of the trailer field at `index`.
        case trailerName(index: Int)
        /// The value of the trailer field at `index`.
        case trailerValue(index: Int)
    }

    /// A method or field name is empty.
    case empty(Field)
    /// `byte` at `offset` (in the field's UTF-8) may not appear in that field: a non-token byte
    /// in a method or name, a control byte (CR, LF, NUL, ...) in a value, a space, control,
    /// `#` or non-ASCII byte in the target.
    case invalidByte(UInt8, field: Field, offset: Int)
    /// The target's form does not suit the method: CONNECT needs authority-form, authority-form
    /// needs CONNECT, asterisk-form needs OPTIONS.
    case targetFormMismatch(method: HTTPMethod)
    /// The target does not have its form's shape at `offset`: origin-form must start with `/`,
    /// absolute-form with `scheme:`, authority-form must be `host:port`.
    case malformedTarget(offset: Int)
    /// A second `Host` field, at this header index.
    case duplicateHost(index: Int)
    /// The `Content-Length` or `Transfer-Encoding` field at this header index disagrees with the
    /// framing.
    case framingConflict(index: Int, framing: HTTPRequestFraming)
    /// The trailer at this index is a field that may not be sent in trailers (RFC 9110 §6.5.1):
    /// `Content-Length`, `Transfer-Encoding`, `Host`, `Trailer`.
    case forbiddenTrailer(index: Int)
}
