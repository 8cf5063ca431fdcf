// Why a response body's Content-Encoding could not be decoded, as a Wick value: a kind to act
// on, the decoder's account as text, and where in the coding's input it went wrong.

/// Why a response body could not be decoded (`SessionTaskFailure.contentDecodingFailed`).
///
/// Match on `kind`; show `description`. `underlyingError` is the decoder's own error, for logs:
/// its type is not part of Wick's API.
public struct ContentDecodingFailure: Error, Sendable, CustomStringConvertible {
    /// What was wrong with the body. New kinds may be added in any release, so a `switch` over
    /// kinds needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as its static member spells it.
        public let description: String

        private init(_ name: String) { description = name }

        /// The compressed stream is invalid: a wrong header for its coding (gzip magic, zlib
        /// check, method, flags, a preset dictionary) or invalid compressed blocks.
        public static let corrupt = Kind("corrupt")
        /// The body ended before the compressed stream did.
        public static let truncated = Kind("truncated")
        /// The stream's trailer check does not match its data (gzip CRC-32 or length, zlib
        /// Adler-32).
        public static let checksumMismatch = Kind("checksumMismatch")
        /// Bytes follow the end of the compressed stream.
        public static let trailingBytes = Kind("trailingBytes")
        /// `Content-Encoding` stacks more codings than the decoder allows.
        public static let tooManyCodings = Kind("tooManyCodings")
        /// The body expands more per compressed byte than the decoder allows: a decompression
        /// bomb, stopped after about 1 MiB of output.
        public static let expansionRatioExceeded = Kind("expansionRatioExceeded")
        /// The body decodes to more bytes than the decoder allows. (The session's
        /// `maximumResponseBodyBytes` normally stops it first, as `WickError.bodyTooLarge`.)
        public static let decodedSizeExceeded = Kind("decodedSizeExceeded")
        /// The decoder could not allocate its state.
        public static let outOfMemory = Kind("outOfMemory")
        /// Anything else.
        public static let other = Kind("other")
    }

    /// What was wrong with the body.
    public let kind: Kind
    /// The decoder's account, as text (`invalidData(coding: ..., offset: 10)`).
    public let reason: String
    /// The coding that failed (`gzip`, `deflate`, `br`, `zstd`), when one did.
    public let coding: String?
    /// Bytes of the failing coding's input read when the problem was found (for stacked codings,
    /// the output of the coding applied after it), when the failure has a place.
    public let offset: Int?
    /// The lower layer's error, for logs. Its type is not API: do not match on it.
    public let underlyingError: (any Error)?

    /// A failure of `kind` with `reason` (for test doubles and adapters that make their own
    /// failures).
    public init(
        kind: Kind, reason: String, coding: String? = nil, offset: Int? = nil, underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.coding = coding
        self.offset = offset
        self.underlyingError = underlyingError
    }

    /// The reason.
    public var description: String { reason }
}
