// Why a compressed body could not be decoded, with where in the coding's input it went wrong.

/// A failure to decode a content-coded body. Offsets count bytes of the failing coding's own input
/// (for stacked codings, the output of the coding applied after it), as far as the decoder had
/// read when it found the problem.
public enum ContentDecodingError: Error, Hashable, Sendable {
    /// The `Content-Encoding` list stacks more codings than `maximumCodingLayers`.
    case tooManyCodings(count: Int, limit: Int)
    /// The stream's header is wrong for its coding: gzip magic, zlib CMF/FLG check, compression
    /// method, window size, reserved flags, gzip header CRC, or a preset dictionary request.
    case invalidHeader(coding: ContentCoding, offset: Int)
    /// The compressed blocks are invalid (bad block type, bad code lengths, distance too far back).
    case invalidData(coding: ContentCoding, offset: Int)
    /// The trailer's check does not match the data: gzip CRC-32 or length, zlib Adler-32.
    case checksumMismatch(coding: ContentCoding, offset: Int)
    /// Bytes follow the end of the compressed stream (after the last gzip member).
    case trailingGarbage(coding: ContentCoding, offset: Int)
    /// The body ended before the compressed stream did.
    case truncated(coding: ContentCoding, offset: Int)
    /// Decoding would produce more than `maximumDecodedSize` bytes; nothing past the limit was
    /// handed out.
    case decodedSizeLimitExceeded(limit: Int)
    /// Decoded bytes would exceed `maximumExpansionRatio` times the encoded bytes read so far
    /// (above `expansionRatioFloor`); nothing past the limit was handed out.
    case expansionRatioLimitExceeded(limit: Int, encoded: Int, decoded: Int)
    /// zlib could not allocate its state.
    case outOfMemory
}
