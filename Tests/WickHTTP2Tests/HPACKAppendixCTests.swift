// Every example of RFC 7541 Appendix C (C.2–C.6): decoded fields and dynamic table sizes, and
// byte-exact encoding where the example's choices are the encoder's (C.4 and C.6: Huffman).
import Testing

@testable import WickHTTP2

@Suite struct HPACKAppendixCTests {
    /// One block of an example: its hex dump, the fields it decodes to, the table size after it.
    struct Step {
        let dump: String
        let fields: [HPACKHeaderField]
        let tableSize: Int
    }

    /// C.5 and C.6 run with SETTINGS_HEADER_TABLE_SIZE = 256. The examples assume that table from
    /// their first byte; on a real connection it starts at 4,096 and the encoder's first block
    /// says 256 with a size update (0x3f 0xe1 0x01), which the tests send as a block of its own.
    static let sizeUpdateTo256 = hex("3fe1 01")

    static let requests: [KeyValuePairs<String, String>] = [
        [":method": "GET", ":scheme": "http", ":path": "/", ":authority": "www.example.com"],
        [
            ":method": "GET", ":scheme": "http", ":path": "/", ":authority": "www.example.com",
            "cache-control": "no-cache",
        ],
        [
            ":method": "GET", ":scheme": "https", ":path": "/index.html", ":authority": "www.example.com",
            "custom-key": "custom-value",
        ],
    ]
    static let responses: [KeyValuePairs<String, String>] = [
        [
            ":status": "302", "cache-control": "private", "date": "Mon, 21 Oct 2013 20:13:21 GMT",
            "location": "https://www.example.com",
        ],
        [
            ":status": "307", "cache-control": "private", "date": "Mon, 21 Oct 2013 20:13:21 GMT",
            "location": "https://www.example.com",
        ],
        [
            ":status": "200", "cache-control": "private", "date": "Mon, 21 Oct 2013 20:13:22 GMT",
            "location": "https://www.example.com", "content-encoding": "gzip",
            "set-cookie": "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
        ],
    ]

    static let c3 = [
        "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "8286 84be 5808 6e6f 2d63 6163 6865",
        "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
    ]
    static let c4 = [
        "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
        "8286 84be 5886 a8eb 1064 9cbf",
        "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
    ]
    static let c5 = [
        """
        4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
        2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
        6c65 2e63 6f6d
        """,
        "4803 3330 37c1 c0bf",
        """
        88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
        54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
        5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
        3d31
        """,
    ]
    static let c6 = [
        """
        4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
        2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3
        """,
        "4883 640e ffc1 c0bf",
        """
        88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
        77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
        9587 3160 65c0 03ed 4ee5 b106 3d50 07
        """,
    ]
    static let requestTableSizes = [57, 110, 164]
    static let responseTableSizes = [222, 222, 215]

    @Test(
        "C.2.1 literal with indexing, C.2.2 without, C.2.3 never indexed, C.2.4 indexed",
        arguments: [
            (
                "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572", "custom-key", "custom-header",
                HPACKIndexing.automatic, 55
            ),
            ("040c 2f73 616d 706c 652f 7061 7468", ":path", "/sample/path", .withoutIndexing, 0),
            ("1008 7061 7373 776f 7264 0673 6563 7265 74", "password", "secret", .neverIndexed, 0),
            ("82", ":method", "GET", .automatic, 0),
        ])
    func appendixC2(dump: String, name: String, value: String, indexing: HPACKIndexing, tableSize: Int) throws {
        var decoder = HPACKDecoder()
        let decoded = try decoder.decode(hex(dump)[...]).fields
        #expect(decoded == [HPACKHeaderField(name, value, indexing: indexing)])
        #expect(decoder.dynamicTableSize.size == tableSize)
    }

    @Test func appendixC3RequestsWithoutHuffman() throws {
        var decoder = HPACKDecoder()
        for (index, dump) in Self.c3.enumerated() {
            #expect(try decoder.decode(hex(dump)[...]).fields == fields(Self.requests[index]), "C.3.\(index + 1)")
            #expect(decoder.dynamicTableSize.size == Self.requestTableSizes[index])
        }
    }

    @Test func appendixC4RequestsWithHuffmanDecodeAndEncodeByteForByte() throws {
        var decoder = HPACKDecoder()
        var encoder = HPACKEncoder()
        for (index, dump) in Self.c4.enumerated() {
            #expect(try decoder.decode(hex(dump)[...]).fields == fields(Self.requests[index]), "C.4.\(index + 1)")
            #expect(decoder.dynamicTableSize.size == Self.requestTableSizes[index])
            var encoded: [UInt8] = []
            encoder.encode(fields(Self.requests[index]), into: &encoded)
            #expect(encoded == hex(dump), "C.4.\(index + 1) encoded")
            #expect(encoder.dynamicTableSize.size == Self.requestTableSizes[index])
        }
    }

    @Test func appendixC5ResponsesWithoutHuffman() throws {
        var decoder = HPACKDecoder(maxTableSize: 4096)
        #expect(try decoder.decode(Self.sizeUpdateTo256[...]).isEmpty)
        for (index, dump) in Self.c5.enumerated() {
            #expect(try decoder.decode(hex(dump)[...]).fields == fields(Self.responses[index]), "C.5.\(index + 1)")
            #expect(decoder.dynamicTableSize == (Self.responseTableSizes[index], 256))
        }
    }

    @Test func appendixC6ResponsesWithHuffmanDecodeAndEncodeByteForByte() throws {
        var decoder = HPACKDecoder(maxTableSize: 4096)
        #expect(try decoder.decode(Self.sizeUpdateTo256[...]).isEmpty)
        var encoder = HPACKEncoder(maxTableSize: 256)
        for (index, dump) in Self.c6.enumerated() {
            #expect(try decoder.decode(hex(dump)[...]).fields == fields(Self.responses[index]), "C.6.\(index + 1)")
            #expect(decoder.dynamicTableSize == (Self.responseTableSizes[index], 256))
            var encoded: [UInt8] = []
            encoder.encode(fields(Self.responses[index]), into: &encoded)
            let expected = (index == 0 ? Self.sizeUpdateTo256 : []) + hex(dump)
            #expect(encoded == expected, "C.6.\(index + 1) encoded")
        }
    }
}
