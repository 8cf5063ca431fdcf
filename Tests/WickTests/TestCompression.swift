// Test helper: gzip and zlib-wrapped deflate bodies built with zlib's one-shot `compress2`.
import CWickZlib

/// Compressed fixtures for the decoding tests: `compress2` makes a zlib stream; gzip is its raw
/// deflate data between a fixed gzip header and a CRC-32 / length trailer (RFC 1952).
enum TestCompression {
    /// `input` as a zlib-wrapped deflate stream (`Content-Encoding: deflate`).
    static func zlib(_ input: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let result = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                // SAFETY: zlib writes at most `length` bytes into `out` and reads `input.count` from `source`.
                compress2(out.baseAddress, &length, source.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
            }
        }
        precondition(result == Z_OK, "compress2 failed: \(result)")
        return Array(output[..<Int(length)])
    }

    /// `input` as one gzip member (`Content-Encoding: gzip`).
    static func gzip(_ input: [UInt8]) -> [UInt8] {
        let wrapped = zlib(input)
        // A zlib stream is a 2-byte header, the raw deflate data, and a 4-byte Adler-32.
        let deflated = wrapped[2..<(wrapped.count - 4)]
        let checksum = input.withUnsafeBufferPointer { source in
            // SAFETY: zlib reads `input.count` bytes from `source`.
            UInt32(crc32(0, source.baseAddress, uInt(input.count)))
        }
        let size = UInt32(truncatingIfNeeded: input.count)
        let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        return header + deflated + littleEndian(checksum) + littleEndian(size)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
