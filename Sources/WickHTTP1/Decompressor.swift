// The one operation every decompression library offers, so that `ContentDecoderLayer` drives zlib,
// brotli and zstd through the same limit-enforcing loop.

/// A streaming decompressor owned by one content-decoder layer (and so by one connection's loop).
protocol Decompressor: AnyObject {
    /// Decompresses from `input`, writing at most `room` bytes at the start of `output`
    /// (`1...output.count`). Consumes input only as far as it makes progress and keeps no pointer
    /// into either buffer after returning.
    func decompress(_ input: ArraySlice<UInt8>, into output: inout [UInt8], room: Int) -> DecompressionStep
}
