// What one call into a decompression library (zlib, brotli, zstd) did, in the library's terms
// made common, so that one loop in `ContentDecoderLayer` enforces the limits for every coding.

/// What one decompression call did.
struct DecompressionStep {
    /// How the library's call ended.
    enum Status: Equatable {
        /// Progress was made; the stream goes on.
        case progressed
        /// The end of the stream (zstd: of a frame) was reached, its trailer checked and all its
        /// output flushed.
        case streamEnd
        /// No progress was possible: all input consumed and all output flushed.
        case needsInput
        /// The header was invalid (magic, window size, reserved flags, preset dictionary).
        case invalidHeader
        /// The compressed data was invalid.
        case invalidData
        /// A checksum in the stream (CRC-32, Adler-32, XXH64) or a length did not match.
        case checksumMismatch
        /// The library could not allocate memory.
        case outOfMemory
    }

    /// Input bytes the library consumed.
    var consumed: Int
    /// Output bytes the library wrote at the start of the output buffer.
    var produced: Int
    /// How the call ended.
    var status: Status
}
