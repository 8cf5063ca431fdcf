// Why a response could not be parsed, and the byte where that became certain.

/// A response the parser rejected: what was wrong and where.
///
/// `offset` counts bytes from the first byte of the response exchange that `expectResponse(to:)`
/// started (interim 1xx responses included), so the same input always fails at the same offset
/// however it was split. The connection must be closed after any parse error.
public struct HTTPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What rule the input broke.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        // Status line (RFC 9112 §4).
        /// The version is not `HTTP/` DIGIT `.` DIGIT (case-sensitive).
        case invalidVersion
        /// A well-formed version whose major number is not 1, e.g. `HTTP/2.0`.
        case unsupportedVersion
        /// The status code is not exactly three digits from 100 to 999, or is not followed by
        /// SP or the end of the line.
        case invalidStatusCode
        /// The reason phrase holds a control byte other than HTAB.
        case invalidReasonPhrase

        // Field lines (RFC 9112 §5).
        /// A field name is empty or holds a byte that is not a token character.
        case invalidFieldName
        /// SP or HTAB inside a field name or between it and the colon (always rejected, §5.1).
        case whitespaceBeforeColon
        /// A field line has no colon.
        case missingColon
        /// A field value holds NUL, a lone CR or another control byte other than HTAB.
        case invalidFieldValue
        /// A line starts with SP or HTAB (obs-fold, §5.2) while `rejectObsoleteLineFolding` is on.
        case obsoleteLineFolding
        /// The first line of the head's or the trailers' fields starts with SP or HTAB: it has no
        /// field to continue (§2.2 forbids whitespace between the start-line and the first field;
        /// §5.2's obs-fold only continues a field). An error in every configuration.
        case whitespaceBeforeFirstField
        /// A line ends in LF without CR (§2.2).
        case bareLF
        /// A CR in a chunk line or after chunk data is not followed by LF.
        case invalidLineEnding

        // Limits (HTTPParserConfiguration).
        /// The status line is longer than `maxStatusLineBytes`.
        case statusLineTooLong
        /// A field line is longer than `maxFieldLineBytes`.
        case fieldLineTooLong
        /// The head is longer than `maxHeadBytes`.
        case headTooLarge
        /// The head or the trailers hold more than `maxFieldCount` field lines.
        case tooManyFields
        /// A chunk size has more than `maxChunkSizeDigits` hex digits.
        case chunkSizeTooLong
        /// A chunk's extensions are longer than `maxChunkExtensionBytes`.
        case chunkExtensionTooLong
        /// The trailer section is longer than `maxTrailerBytes`.
        case trailersTooLarge

        // Framing (RFC 9112 §6).
        /// Both Transfer-Encoding and Content-Length are present (§6.3 rule 3; smuggling shape).
        case transferEncodingWithContentLength
        /// Transfer-Encoding in an HTTP/1.0 response (§6.1: the framing is faulty).
        case transferEncodingInHTTP10
        /// A transfer coding other than `chunked`, or chunked twice.
        case unsupportedTransferCoding
        /// Content-Length is empty, not all digits, or negative.
        case invalidContentLength
        /// Content-Length values differ (in one list or across field lines).
        case conflictingContentLengths
        /// Content-Length does not fit in 64 bits.
        case contentLengthOverflow

        // Chunked coding (RFC 9112 §7.1).
        /// A chunk-size line does not start with a hex digit or has a byte that cannot follow it.
        case invalidChunkSize
        /// A chunk size does not fit in 64 bits.
        case chunkSizeOverflow
        /// A chunk-size line's extensions do not follow §7.1.1's grammar (`;` then a token name,
        /// optionally `=` and a token or quoted-string value, with BWS around `;` and `=`).
        case invalidChunkExtension
        /// The CRLF after a chunk's data is missing.
        case missingChunkDataCRLF

        // End of input.
        /// The connection closed before the response was complete (offset 0: before any byte).
        case unexpectedEOF
    }

    /// What rule the input broke.
    public let kind: Kind
    /// Bytes from the start of the exchange to the byte where the error became certain.
    public let offset: Int

    /// An error of a kind at an offset.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// `kind at offset`, as the golden fixtures write it.
    public var description: String { "\(kind.rawValue) at \(offset)" }
}
