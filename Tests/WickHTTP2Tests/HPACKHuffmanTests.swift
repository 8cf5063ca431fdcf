// The transcribed Huffman table checked against what Appendix B must be, and the coder's errors.
import Testing
import WickTestSupport

@testable import WickHTTP2

@Suite struct HPACKHuffmanTests {
    @Test func theTableIsTheCanonicalCodeOfItsLengths() {
        // RFC 7541's code is canonical: ordered by length, then by symbol, each code the previous
        // one plus 1, shifted left when the length grows. Recomputing it from the lengths alone
        // must give every transcribed code.
        let symbols = (0...256).sorted {
            (HPACKHuffmanTable.lengths[$0], $0) < (HPACKHuffmanTable.lengths[$1], $1)
        }
        var code: UInt64 = 0
        var previousLength = Int(HPACKHuffmanTable.lengths[symbols[0]])
        for (position, symbol) in symbols.enumerated() {
            let length = Int(HPACKHuffmanTable.lengths[symbol])
            if position > 0 { code = (code + 1) << UInt64(length - previousLength) }
            previousLength = length
            #expect(UInt64(HPACKHuffmanTable.codes[symbol]) == code, "symbol \(symbol)")
        }
    }

    @Test func theCodeIsCompleteAndEndOfStringIsThirtyOnes() {
        // Kraft: the sum of 2^-length is exactly 1 for a complete prefix code.
        let kraftSum = (0...256).reduce(UInt64(0)) { $0 + (UInt64(1) << (30 - UInt64(HPACKHuffmanTable.lengths[$1]))) }
        #expect(kraftSum == 1 << 30)
        #expect(HPACKHuffmanTable.codes[256] == 0x3FFF_FFFF && HPACKHuffmanTable.lengths[256] == 30)
        #expect(HPACKHuffmanTable.lengths.min() == 5)
        // Spot checks against Appendix B's printed rows.
        #expect(
            HPACKHuffmanTable.codes[Int(UInt8(ascii: "0"))] == 0x0
                && HPACKHuffmanTable.lengths[Int(UInt8(ascii: "0"))] == 5)
        #expect(
            HPACKHuffmanTable.codes[Int(UInt8(ascii: "a"))] == 0x3
                && HPACKHuffmanTable.lengths[Int(UInt8(ascii: "a"))] == 5)
        #expect(HPACKHuffmanTable.codes[0] == 0x1FF8 && HPACKHuffmanTable.lengths[0] == 13)
        #expect(HPACKHuffmanTable.codes[255] == 0x3FFFFEE && HPACKHuffmanTable.lengths[255] == 26)
    }

    @Test func everyByteRoundTrips() throws {
        var random = SeededRandom(seed: 7541)
        let inputs =
            [Array(0...255) as [UInt8], Array((0...255).reversed())]
            + (0..<200).map { _ in
                (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
        for input in inputs {
            var encoded: [UInt8] = []
            // A wrong count would leave zero bytes at the end, which decode as invalid padding.
            HPACKHuffman.encode(input, encodedCount: HPACKHuffman.encodedCount(of: input), into: &encoded)
            var decoded: [UInt8] = []
            try HPACKHuffman.decode(encoded[...], blockOffset: 0, into: &decoded)
            #expect(decoded == input)
        }
    }

    @Test func paddingOfSevenOnesIsAcceptedAndEightIsNot() throws {
        // "0" is 00000 (5 bits) + 3 padding ones; then a whole extra byte of ones is too much.
        var decoded: [UInt8] = []
        try HPACKHuffman.decode([0x07][...], blockOffset: 0, into: &decoded)
        #expect(decoded == Array("0".utf8))
        // Five "0"s are 25 zero bits; 7 bits of padding complete the fourth byte.
        decoded = []
        try HPACKHuffman.decode([0x00, 0x00, 0x00, 0x7F][...], blockOffset: 0, into: &decoded)
        #expect(decoded == Array("00000".utf8))
        #expect(throws: HPACKError(.invalidHuffmanPadding, at: 1)) {
            var output: [UInt8] = []
            try HPACKHuffman.decode([0x07, 0xFF][...], blockOffset: 0, into: &output)
        }
    }

    @Test func paddingThatIsNotAllOnesIsRejected() {
        #expect(throws: HPACKError(.invalidHuffmanPadding, at: 0)) {
            var output: [UInt8] = []
            try HPACKHuffman.decode([0x06][...], blockOffset: 0, into: &output)  // 00000 110
        }
    }

    @Test func anEncodedEndOfStringIsRejected() {
        // EOS is thirty 1 bits; the decoder sees it complete in the fourth byte.
        #expect(throws: HPACKError(.huffmanEndOfString, at: 13)) {
            var output: [UInt8] = []
            try HPACKHuffman.decode([0xFF, 0xFF, 0xFF, 0xFF][...], blockOffset: 10, into: &output)
        }
    }
}
