// HPACK's prefixed integers: RFC 7541 Appendix C.1 and the 32-bit bound at N and N + 1.
import Testing

@testable import WickHTTP2

@Suite struct HPACKIntegerTests {
    @Test(
        "C.1.1, C.1.2, C.1.3",
        arguments: [
            (10, 5, [0x0A] as [UInt8]),
            (1337, 5, [0x1F, 0x9A, 0x0A]),
            (42, 8, [0x2A]),
            (31, 5, [0x1F, 0x00]),
            (30, 5, [0x1E]),
        ])
    func appendixC1(value: Int, prefixBits: Int, encoded: [UInt8]) throws {
        var output: [UInt8] = []
        HPACKInteger.encode(value, prefixBits: prefixBits, firstByteFlags: 0, into: &output)
        #expect(output == encoded)
        var index = 0
        #expect(try HPACKInteger.decode(encoded[...], at: &index, prefixBits: prefixBits) == value)
        #expect(index == encoded.count)
    }

    @Test func flagsAbovePrefixAreKeptAndIgnored() throws {
        var output: [UInt8] = []
        HPACKInteger.encode(1337, prefixBits: 5, firstByteFlags: 0xE0, into: &output)
        #expect(output == [0xFF, 0x9A, 0x0A])
        var index = 0
        #expect(try HPACKInteger.decode(output[...], at: &index, prefixBits: 5) == 1337)
    }

    @Test func theLargest32BitValueDecodesAndOneMoreOverflows() throws {
        var largest: [UInt8] = []
        HPACKInteger.encode(HPACKInteger.maxValue, prefixBits: 7, firstByteFlags: 0, into: &largest)
        var index = 0
        #expect(try HPACKInteger.decode(largest[...], at: &index, prefixBits: 7) == HPACKInteger.maxValue)

        var tooLarge: [UInt8] = []
        HPACKInteger.encode(HPACKInteger.maxValue + 1, prefixBits: 7, firstByteFlags: 0, into: &tooLarge)
        index = 0
        #expect(throws: HPACKError(.integerOverflow, at: tooLarge.count - 1)) {
            try HPACKInteger.decode(tooLarge[...], at: &index, prefixBits: 7)
        }
    }

    @Test func endlessContinuationBytesOverflowWithoutReadingThemAll() {
        let input: [UInt8] = [0x7F] + Array(repeating: 0x80, count: 100) + [0x00]
        var index = 0
        #expect(throws: HPACKError(.integerOverflow, at: 6)) {
            try HPACKInteger.decode(input[...], at: &index, prefixBits: 7)
        }
    }

    @Test func truncatedIntegersAreTruncatedBlocks() {
        for input in [[], [0x1F], [0x1F, 0x9A]] as [[UInt8]] {
            var index = 0
            #expect(throws: HPACKError(.truncatedBlock, at: input.count)) {
                try HPACKInteger.decode(input[...], at: &index, prefixBits: 5)
            }
        }
    }
}
