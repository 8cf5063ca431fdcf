// Content-Encoding field values parsed into the list of codings, in the order applied.
import Testing

@testable import WickHTTP1

@Suite struct ContentCodingTests {
    @Test(
        arguments: [
            ([], []),
            (["gzip"], [ContentCoding.gzip]),
            (["GZIP"], [.gzip]),
            (["x-gzip"], [.gzip]),
            (["Deflate"], [.deflate]),
            (["identity"], [.identity]),
            (["gzip, deflate"], [.gzip, .deflate]),
            (["gzip", "deflate"], [.gzip, .deflate]),
            ([" gzip ,\tgzip\t"], [.gzip, .gzip]),
            ([",,gzip,, ,"], [.gzip]),
            ([""], []),
            (["BR"], [.brotli]),
            (["zstd, gzip"], [.zstd, .gzip]),
            (["Compress, gzip"], [.unsupported("compress"), .gzip]),
            (["gzip;q=1"], [.unsupported("gzip;q=1")]),
        ] as [([String], [ContentCoding])])
    func parsesFieldValuesInTheOrderApplied(_ values: [String], _ expected: [ContentCoding]) {
        #expect(ContentCoding.list(fromFieldValues: values) == expected)
    }

    @Test func descriptionsAreTheTokens() {
        #expect(
            [ContentCoding.gzip, .deflate, .brotli, .zstd, .identity, .unsupported("compress")].map(\.description) == [
                "gzip", "deflate", "br", "zstd", "identity", "compress",
            ])
    }

    @Test(arguments: [
        (UInt8(0x78), UInt8(0x9C), true), (0x78, 0x01, true), (0x78, 0xDA, true), (0x08, 0x1D, true),
        (0x78, 0x9D, false),  // check bits wrong
        (0x79, 0x9C, false),  // CM 9
        (0x88, 0x98, false),  // CINFO 8: window too large
        (0x07, 0x00, false),  // raw deflate, reserved block type
    ])
    func zlibHeaderDetection(cmf: UInt8, flg: UInt8, isZlib: Bool) {
        #expect(ContentDecoderLayer.looksLikeZlibHeader(cmf, flg) == isZlib)
    }
}
