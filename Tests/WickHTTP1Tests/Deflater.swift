// Test helper: zlib's deflate, streaming, to make gzip / zlib / raw test bodies inside the tests.
import CWickZlib

/// A zlib deflate stream for building compressed fixtures; frees its state in deinit.
final class Deflater {
    /// The framing to produce.
    enum Format {
        case gzip, zlib, raw

        var windowBits: Int32 {
            switch self {
            case .gzip: 15 + 16
            case .zlib: 15
            case .raw: -15
            }
        }
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    init(_ format: Format, level: Int32 = Z_DEFAULT_COMPRESSION) {
        // SAFETY: one fresh z_stream, zero-initialised as deflateInit2 requires.
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = cwick_deflateInit2(stream, level, format.windowBits, 8)
        precondition(result == Z_OK, "deflateInit2 failed: \(result)")
    }

    deinit {
        // SAFETY: initialised in init, ended once here.
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`, handing compressed pieces to `sink`; `finish` ends the stream.
    func compress(_ input: [UInt8], finish: Bool, sink: ([UInt8]) -> Void) {
        var input = input
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        input.withUnsafeMutableBufferPointer { inBuffer in
            // SAFETY: zlib reads avail_in bytes at next_in during the calls below only.
            stream.pointee.next_in = inBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inBuffer.count)
            while true {
                let (result, produced) = output.withUnsafeMutableBufferPointer { outBuffer in
                    // SAFETY: zlib writes at most avail_out bytes into outBuffer.
                    stream.pointee.next_out = outBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(outBuffer.count)
                    let result = deflate(stream, flush)
                    return (result, outBuffer.count - Int(stream.pointee.avail_out))
                }
                precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate: \(result)")
                if produced > 0 { sink(Array(output[..<produced])) }
                if result == Z_STREAM_END { break }
                if !finish && stream.pointee.avail_in == 0 && produced < output.count { break }
            }
            stream.pointee.next_in = nil
        }
    }

    /// The whole compressed form of `input`.
    static func compress(_ input: [UInt8], _ format: Format, level: Int32 = Z_DEFAULT_COMPRESSION) -> [UInt8] {
        var result: [UInt8] = []
        Deflater(format, level: level).compress(input, finish: true) { result += $0 }
        return result
    }
}
