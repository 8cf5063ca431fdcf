// Raw brotli decoding, the br peer: the same compressed pieces, the same 64 KiB output buffer.
import CBenchSupport

/// Decodes a brotli body with libbrotlidec directly, a fresh decoder state per body (brotli has no
/// reset, so Wick does the same), the ceiling for any brotli-based decoder.
final class BrotliDecodeRunner {
    let compressed: [UInt8]
    let pieceSize: Int
    let decodedCount: Int
    let outputSize: Int
    private let output: UnsafeMutablePointer<UInt8>

    init(compressed: [UInt8], pieceSize: Int, decodedCount: Int, outputSize: Int) {
        self.compressed = compressed
        self.pieceSize = pieceSize
        self.decodedCount = decodedCount
        self.outputSize = outputSize
        output = .allocate(capacity: outputSize)
    }

    deinit {
        output.deallocate()
    }

    /// Decodes the body `iterations` times; returns the decoded bytes.
    func run(_ iterations: Int) -> Int {
        var total = 0
        for _ in 0..<iterations {
            let decoded = decodeOnce()
            precondition(decoded == decodedCount, "brotli decoded \(decoded) bytes, not \(decodedCount)")
            total &+= decoded
        }
        return total
    }

    private func decodeOnce() -> Int {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { fatalError("brotli: no memory") }
        defer { BrotliDecoderDestroyInstance(state) }
        var decoded = 0
        compressed.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                let count = min(pieceSize, input.count - offset)
                // SAFETY: brotli reads at most availableIn bytes from nextIn (inside `input`) and
                // writes at most availableOut bytes to `output` (outputSize bytes).
                var availableIn = count
                var nextIn: UnsafePointer<UInt8>? = input.baseAddress! + offset
                offset += count
                var result: BrotliDecoderResult
                repeat {
                    var availableOut = outputSize
                    var nextOut: UnsafeMutablePointer<UInt8>? = output
                    result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    precondition(result != BROTLI_DECODER_RESULT_ERROR, "brotli: corrupt benchmark body")
                    decoded += outputSize - availableOut
                    blackHole(output.pointee)
                } while result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT
            }
        }
        return decoded
    }
}
