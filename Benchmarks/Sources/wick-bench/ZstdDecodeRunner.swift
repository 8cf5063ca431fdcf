// Raw zstd decoding, the zstd peer: the same compressed pieces, the same 64 KiB output buffer.
import CBenchSupport

/// Decodes a zstd body with libzstd directly (one context, reset between bodies), the ceiling for
/// any zstd-based decoder.
final class ZstdDecodeRunner {
    let compressed: [UInt8]
    let pieceSize: Int
    let decodedCount: Int
    let outputSize: Int
    private let context: OpaquePointer
    private let output: UnsafeMutablePointer<UInt8>

    init(compressed: [UInt8], pieceSize: Int, decodedCount: Int, outputSize: Int) {
        self.compressed = compressed
        self.pieceSize = pieceSize
        self.decodedCount = decodedCount
        self.outputSize = outputSize
        guard let context = ZSTD_createDCtx() else { fatalError("zstd: no memory") }
        self.context = context
        output = .allocate(capacity: outputSize)
    }

    deinit {
        ZSTD_freeDCtx(context)
        output.deallocate()
    }

    /// Decodes the body `iterations` times; returns the decoded bytes.
    func run(_ iterations: Int) -> Int {
        var total = 0
        for _ in 0..<iterations {
            let decoded = decodeOnce()
            precondition(decoded == decodedCount, "zstd decoded \(decoded) bytes, not \(decodedCount)")
            total &+= decoded
        }
        return total
    }

    private func decodeOnce() -> Int {
        precondition(ZSTD_isError(ZSTD_DCtx_reset(context, ZSTD_reset_session_only)) == 0, "ZSTD_DCtx_reset failed")
        var decoded = 0
        compressed.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                let count = min(pieceSize, input.count - offset)
                // SAFETY: zstd reads at most `size` bytes at `src` (inside `input`) and writes at
                // most `size` bytes at `dst` (`output`, outputSize bytes).
                var source = ZSTD_inBuffer(src: input.baseAddress! + offset, size: count, pos: 0)
                offset += count
                var full: Bool
                repeat {
                    var destination = ZSTD_outBuffer(dst: output, size: outputSize, pos: 0)
                    let result = ZSTD_decompressStream(context, &destination, &source)
                    precondition(ZSTD_isError(result) == 0, "zstd: corrupt benchmark body")
                    decoded += destination.pos
                    full = destination.pos == outputSize
                    blackHole(output.pointee)
                } while source.pos < source.size || full
            }
        }
        return decoded
    }
}
