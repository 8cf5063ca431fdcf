// The HPACK decoder's rules and limits, and seeded encoder-decoder round trips.
import Testing
import WickTestSupport

@testable import WickHTTP2

@Suite struct HPACKCoderTests {
    /// A block with one literal-with-indexing field `name: value` (no Huffman, literal name).
    static func literalWithIndexing(_ name: String, _ value: String) -> [UInt8] {
        var block: [UInt8] = [0x40]
        HPACKInteger.encode(name.utf8.count, prefixBits: 7, firstByteFlags: 0, into: &block)
        block += Array(name.utf8)
        HPACKInteger.encode(value.utf8.count, prefixBits: 7, firstByteFlags: 0, into: &block)
        block += Array(value.utf8)
        return block
    }

    @Test func indexZeroAndIndexesPastTheTablesAreInvalid() throws {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError(.invalidIndex, at: 0)) { try decoder.decode([0x80][...]) }
        // Index 62 while the dynamic table is empty:
        #expect(throws: HPACKError(.invalidIndex, at: 1)) { try decoder.decode([0x82, 0xBE][...]) }
        _ = try decoder.decode(Self.literalWithIndexing("a", "b")[...])
        #expect(try decoder.decode([0xBE][...]).fields == [HPACKHeaderField("a", "b")])
        #expect(throws: HPACKError(.invalidIndex, at: 0)) { try decoder.decode([0xBF][...]) }
    }

    @Test func truncatedRepresentationsAreErrors() {
        for dump in ["40", "4005 6162", "400161", "4001 6102 61", "0f"] {
            var decoder = HPACKDecoder()
            #expect(throws: HPACKError.self, "\(dump)") { try decoder.decode(hex(dump)[...]) }
        }
    }

    @Test func aSizeUpdateAboveTheAdvertisedSizeIsRejectedAndAtItAccepted() throws {
        var decoder = HPACKDecoder(maxTableSize: 8192)
        var atLimit: [UInt8] = []
        HPACKInteger.encode(8192, prefixBits: 5, firstByteFlags: 0x20, into: &atLimit)
        _ = try decoder.decode(atLimit[...])
        #expect(decoder.dynamicTableSize.capacity == 8192)
        var aboveLimit: [UInt8] = []
        HPACKInteger.encode(8193, prefixBits: 5, firstByteFlags: 0x20, into: &aboveLimit)
        #expect(throws: HPACKError(.tableSizeUpdateTooLarge, at: 0)) { try decoder.decode(aboveLimit[...]) }
    }

    @Test func aSizeUpdateAfterAFieldIsRejected() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError(.tableSizeUpdateNotAtStart, at: 1)) { try decoder.decode([0x82, 0x20][...]) }
    }

    @Test func aLoweredSizeRequiresAnUpdateAtTheStartOfTheNextBlock() throws {
        var decoder = HPACKDecoder()
        _ = try decoder.decode(Self.literalWithIndexing("name", "value")[...])
        decoder.setMaxTableSize(0)
        #expect(throws: HPACKError(.missingTableSizeUpdate, at: 0)) { try decoder.decode([0x82][...]) }

        var fresh = HPACKDecoder()
        _ = try fresh.decode(Self.literalWithIndexing("name", "value")[...])
        fresh.setMaxTableSize(0)
        #expect(try fresh.decode([0x20, 0x82][...]).fields == [HPACKHeaderField(":method", "GET")])
        #expect(fresh.dynamicTableSize == (0, 0))
        #expect(throws: HPACKError(.tableSizeUpdateTooLarge, at: 0)) { try fresh.decode([0x21][...]) }
    }

    @Test func aFieldLargerThanTheTableEmptiesIt() throws {
        var decoder = HPACKDecoder()
        _ = try decoder.decode([0x3F, 0x11][...])  // size update to 48
        _ = try decoder.decode(Self.literalWithIndexing("a", "b")[...])
        #expect(decoder.dynamicTableSize.size == 34)
        _ = try decoder.decode(Self.literalWithIndexing("a", String(repeating: "x", count: 16))[...])
        #expect(decoder.dynamicTableSize.size == 0)
    }

    @Test func theHeaderListLimitAcceptsNAndRejectsNPlusOne() throws {
        // One field `a: <value>` costs 1 + value + 32.
        let block = Self.literalWithIndexing("a", String(repeating: "v", count: 67))  // 100 bytes
        var atLimit = HPACKDecoder(maxHeaderListSize: 100)
        #expect(try atLimit.decode(block[...]).count == 1)
        var belowLimit = HPACKDecoder(maxHeaderListSize: 99)
        #expect(throws: HPACKError(.headerListTooLarge, at: block.count)) { try belowLimit.decode(block[...]) }
    }

    @Test func anHPACKBombFailsAfterDecodingTheWholeBlockAndKeepsTheTableInStep() throws {
        // One 4,000-byte entry, then 10,000 one-byte references to it: 40 MB if materialized.
        var decoder = HPACKDecoder(maxHeaderListSize: 65_536)
        let big = Self.literalWithIndexing("x", String(repeating: "y", count: 4000))
        #expect(try decoder.decode(big[...]).count == 1)
        let bomb = [UInt8](repeating: 0xBE, count: 10_000) + Self.literalWithIndexing("after", "bomb")
        #expect(throws: HPACKError(.headerListTooLarge, at: bomb.count)) { try decoder.decode(bomb[...]) }
        // The literal after the bomb was still added: the next block can index it.
        #expect(try decoder.decode([0xBE][...]).fields == [HPACKHeaderField("after", "bomb")])
    }

    @Test func seededRoundTripsThroughSmallTablesKeepBothSidesInStep() throws {
        for seed in UInt64(1)...60 {
            var random = SeededRandom(seed: seed)
            let tableSize = [0, 64, 256, 4096].randomElement(using: &random)!
            var encoder = HPACKEncoder(maxTableSize: tableSize)
            var decoder = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: 1 << 20)
            let names = ["content-type", "x-a", "x-b", "cookie", ":status", "set-cookie", "x-\u{e9}"]
            for block in 0..<30 {
                let list = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    HPACKHeaderField(
                        name: Array(names.randomElement(using: &random)!.utf8),
                        value: (0..<Int.random(in: 0...40, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        },
                        indexing: [.automatic, .automatic, .withoutIndexing, .neverIndexed].randomElement(
                            using: &random)!)
                }
                if block == 15 { encoder.setPeerMaxTableSize(Int.random(in: 0...4096, using: &random)) }
                var encoded: [UInt8] = []
                encoder.encode(list, into: &encoded)
                let decoded = try decoder.decode(encoded[...]).fields
                #expect(
                    decoded.map { [$0.name, $0.value] } == list.map { [$0.name, $0.value] },
                    "seed \(seed) block \(block)")
                #expect(
                    decoded.map(\.indexing).filter { $0 == .neverIndexed }.count
                        == list.filter { $0.indexing == .neverIndexed }.count)
                #expect(decoder.dynamicTableSize == encoder.dynamicTableSize, "seed \(seed) block \(block)")
            }
        }
    }
}
