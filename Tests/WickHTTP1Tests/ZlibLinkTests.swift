// Proves that the zlib shim links the system's libz: deflate then inflate round-trips.
import CWickZlib
import Testing

@Suite struct ZlibLinkTests {
    @Test(arguments: [15 + 16, 15, -15])  // gzip, zlib-wrapped, raw deflate
    func deflateThenInflateRoundTrips(windowBits: Int32) throws {
        let input = Array(String(repeating: "wick wick wick ", count: 200).utf8)
        let compressed = try Self.run(input, deflating: true, windowBits: windowBits)
        #expect(compressed.count < input.count / 10)
        let restored = try Self.run(compressed, deflating: false, windowBits: windowBits)
        #expect(restored == input)
    }

    struct ZlibFailure: Error { let code: Int32 }

    /// One-shot deflate or inflate with a generous output buffer; enough for a link test.
    static func run(_ input: [UInt8], deflating: Bool, windowBits: Int32) throws -> [UInt8] {
        var stream = z_stream()
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        let initResult =
            deflating
            ? cwick_deflateInit2(&stream, Z_DEFAULT_COMPRESSION, windowBits, 8)
            : cwick_inflateInit2(&stream, windowBits)
        guard initResult == Z_OK else { throw ZlibFailure(code: initResult) }
        defer { _ = deflating ? deflateEnd(&stream) : inflateEnd(&stream) }
        let result = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                return deflating ? deflate(&stream, Z_FINISH) : inflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw ZlibFailure(code: result) }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
