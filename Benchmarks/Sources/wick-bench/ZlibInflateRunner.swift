// Raw zlib inflate, the gzip peer: the same compressed pieces, the same 64 KiB output buffer.
import CBenchSupport

/// Inflates a gzip body with zlib directly (one stream, `inflateReset` between bodies), the
/// ceiling for any zlib-based decoder.
final class ZlibInflateRunner {
    let compressed: [UInt8]
    let pieceSize: Int
    let decodedCount: Int
    let outputSize: Int
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let output: UnsafeMutablePointer<UInt8>

    init(compressed: [UInt8], pieceSize: Int, decodedCount: Int, outputSize: Int) {
        self.compressed = compressed
        self.pieceSize = pieceSize
        self.decodedCount = decodedCount
        self.outputSize = outputSize
        output = .allocate(capacity: outputSize)
        stream.initialize(to: z_stream())
        precondition(bench_inflateInit2(stream, 15 + 16) == Z_OK, "inflateInit2 failed")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Inflates the body `iterations` times; returns the decoded bytes.
    func run(_ iterations: Int) -> Int {
        var total = 0
        for _ in 0..<iterations {
            let decoded = inflateOnce()
            precondition(decoded == decodedCount, "zlib inflated \(decoded) bytes, not \(decodedCount)")
            total &+= decoded
        }
        return total
    }

    private func inflateOnce() -> Int {
        precondition(inflateReset(stream) == Z_OK, "inflateReset failed")
        var decoded = 0
        compressed.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                let count = min(pieceSize, input.count - offset)
                // SAFETY: zlib reads avail_in bytes from next_in (inside `input`) and writes at most
                // avail_out bytes to `output` (outputSize bytes); zlib never writes through next_in.
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + offset)
                stream.pointee.avail_in = UInt32(count)
                offset += count
                repeat {
                    stream.pointee.next_out = output
                    stream.pointee.avail_out = UInt32(outputSize)
                    let status = inflate(stream, Z_NO_FLUSH)
                    precondition(
                        status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "inflate: \(status)")
                    decoded += outputSize - Int(stream.pointee.avail_out)
                    blackHole(output.pointee)
                } while stream.pointee.avail_out == 0
            }
        }
        return decoded
    }
}
