// brotli and zstd behind ContentDecoder: round trips under every delivery, truncation at every
// offset, trailing bytes, corruption, zstd's frames and window cap, and stacking with gzip.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

@Suite struct BrotliZstdDecoderTests {
    /// A coding with the test encoder that makes its bodies.
    struct Coded: CustomStringConvertible, Sendable {
        let coding: ContentCoding
        let encode: @Sendable ([UInt8]) -> [UInt8]
        var description: String { coding.description }
    }

    static let brotli = Coded(coding: .brotli) { TestBrotliEncoder.compress($0) }
    static let zstd = Coded(coding: .zstd) { TestZstdEncoder.compress($0) }
    static let both = [brotli, zstd]

    /// The same result under every delivery of `input`.
    static func expectEveryDelivery(
        _ input: [UInt8], codings: [ContentCoding], _ expected: Result<[UInt8], ContentDecodingError>
    ) throws {
        for delivery in Delivery.all(of: input) {
            let decoder = try ContentDecoder(codings: codings)
            var largest = 0
            #expect(run(decoder, delivery, maxPiece: &largest) == expected, "\(delivery)")
        }
    }

    @Test(arguments: both)
    func roundTripsUnderEveryDelivery(_ coded: Coded) throws {
        let encoded = coded.encode(sampleText)
        #expect(encoded.count < sampleText.count / 2)
        try Self.expectEveryDelivery(encoded, codings: [coded.coding], .success(sampleText))
    }

    @Test(arguments: both)
    func theFieldNamesTheCoding(_ coded: Coded) throws {
        let upper = coded.coding.description.uppercased()
        #expect(decodeAll(coded.encode(sampleText), fieldValues: [upper]) == .success(sampleText))
        let decoder = try ContentDecoder(codings: ContentCoding.list(fromFieldValues: [upper]))
        #expect(decoder.decodesBody)
    }

    @Test(arguments: both)
    func anEmptyBodyDecodesToNothing(_ coded: Coded) {
        #expect(decodeAll([], fieldValues: [coded.coding.description]) == .success([]))
    }

    /// Every proper prefix of a stream is `truncated` at its own length, however it is cut.
    @Test(arguments: both)
    func everyPrefixIsTruncated(_ coded: Coded) throws {
        let encoded = coded.encode(ContentDecoderLimitTests.text(count: 3_000))
        for length in 1..<encoded.count {
            let prefix = Array(encoded.prefix(length))
            for delivery in [Delivery.whole(prefix), .byteAtATime(prefix)] {
                let decoder = try ContentDecoder(codings: [coded.coding])
                var largest = 0
                #expect(
                    run(decoder, delivery, maxPiece: &largest)
                        == .failure(.truncated(coding: coded.coding, offset: length)), "\(length) \(delivery)")
            }
        }
    }

    @Test func bytesAfterABrotliStreamAreTrailingGarbage() throws {
        let encoded = TestBrotliEncoder.compress(sampleText)
        try Self.expectEveryDelivery(
            encoded + [0x0A], codings: [.brotli], .failure(.trailingGarbage(coding: .brotli, offset: encoded.count)))
    }

    @Test func zstdFramesBackToBackDecodeAsOneBody() throws {
        let first = TestZstdEncoder.compress(sampleText)
        let second = TestZstdEncoder.compress(ContentDecoderTests.otherText)
        try Self.expectEveryDelivery(
            first + second, codings: [.zstd], .success(sampleText + ContentDecoderTests.otherText))
    }

    @Test func bytesAfterAZstdFrameThatStartNoFrameAreTrailingGarbage() throws {
        let encoded = TestZstdEncoder.compress(sampleText)
        let garbage: [UInt8] = [0x0A, 0x00, 0x00, 0x00, 0x00, 0x00]
        try Self.expectEveryDelivery(
            encoded + garbage, codings: [.zstd], .failure(.trailingGarbage(coding: .zstd, offset: encoded.count)))
    }

    @Test func aZstdChecksumMismatchIsReported() throws {
        var encoded = TestZstdEncoder.compress(sampleText)
        encoded[encoded.count - 1] ^= 0x01  // the frame's content checksum is its last 4 bytes
        let decoder = try ContentDecoder(codings: [.zstd])
        var largest = 0
        guard
            case .failure(.checksumMismatch(coding: .zstd, offset: _)) = run(
                decoder, .whole(encoded), maxPiece: &largest)
        else {
            Issue.record("expected a checksum mismatch")
            return
        }
    }

    @Test(arguments: both)
    func aWrongMagicIsAnInvalidHeader(_ coded: Coded) throws {
        // A zstd frame must start with 28 b5 2f fd; brotli's first byte 0x11 asks for a window
        // size that does not exist (WBITS marker 0010001 is invalid).
        let body: [UInt8] = coded.coding == .zstd ? [0x28, 0xB5, 0x2F, 0xFE, 0, 0, 0, 0] : [0x11, 0, 0, 0]
        let result = decodeAll(body, fieldValues: [coded.coding.description])
        guard case .failure(.invalidHeader(coding: coded.coding, offset: _)) = result else {
            Issue.record("expected an invalid header, got \(result)")
            return
        }
    }

    /// Found by FuzzZstdDecoder: libzstd decodes its legacy v0.7 format (magic 0xFD2FB527) when
    /// the magic arrives in one piece but not when it is cut, so whole and split deliveries
    /// disagreed. The layer checks each frame's magic itself: not the zstd coding, however cut.
    @Test func aLegacyZstdFrameIsAnInvalidHeaderHoweverItIsCut() throws {
        let legacy: [UInt8] = [0x27, 0xB5, 0x2F, 0xFD, 0x00, 0x63, 0x40, 0x00, 0x00]
        try Self.expectEveryDelivery(legacy, codings: [.zstd], .failure(.invalidHeader(coding: .zstd, offset: 0)))
        let frame = TestZstdEncoder.compress(sampleText)
        try Self.expectEveryDelivery(
            frame + legacy, codings: [.zstd], .failure(.trailingGarbage(coding: .zstd, offset: frame.count)))
    }

    /// Found by FuzzZstdDecoder: a frame naming a dictionary decoded to nothing, successfully,
    /// when its header and first block came in one piece, and was refused when the header came
    /// alone. RFC 8878 §3.1.1.1.3: Dictionary_ID names the dictionary the frame needs; the
    /// `zstd` coding cannot supply one, so the frame is an invalid header however it is cut.
    @Test(arguments: [(0x25, [0x07]), (0x26, [0xB5, 0x2F]), (0x07, [0x01, 0x00, 0x00, 0x00])] as [(UInt8, [UInt8])])
    func aFrameThatNamesADictionaryIsAnInvalidHeaderHoweverItIsCut(descriptor: UInt8, dictionaryID: [UInt8]) throws {
        // Single segment (a 1-byte content size, 253) when bit 5 is set, else a window descriptor;
        // then the dictionary ID and one raw block of 1 byte, not the last.
        let window: [UInt8] = descriptor & 0x20 != 0 ? [] : [0x50]
        let size: [UInt8] = descriptor & 0x20 != 0 ? [0xFD] : []
        let frame = [0x28, 0xB5, 0x2F, 0xFD, descriptor] + window + dictionaryID + size + [0x08, 0x00, 0x00, 0x00]
        try Self.expectEveryDelivery(frame, codings: [.zstd], .failure(.invalidHeader(coding: .zstd, offset: 0)))
        let first = TestZstdEncoder.compress(sampleText)
        try Self.expectEveryDelivery(
            first + frame, codings: [.zstd], .failure(.invalidHeader(coding: .zstd, offset: first.count)))
    }

    /// Found by FuzzZstdDecoder (CI, 2026-11-29): a single-segment frame whose 1-byte content
    /// size says 38, then a block header announcing a 2 MiB block, decoded to nothing, with no
    /// error, when the bytes after the header came in one piece: the header used to reach libzstd
    /// in two calls, and its single-pass shortcut took those bytes (26 b5 2f fd: the magic of its
    /// legacy v0.6 format) for a frame of their own. Cut anywhere else it was invalid data. Now the
    /// library gets the whole header at once, and every delivery fails.
    @Test func aFrameWhoseHeaderEndsInALegacyMagicFailsHoweverItIsCut() throws {
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x26, 0xB5, 0x2F, 0xFD, 0x08, 0x00, 0x00, 0x00]
        for codings in [[ContentCoding.zstd], [.gzip, .zstd]] {
            for delivery in Delivery.all(of: frame) {
                let decoder = try ContentDecoder(codings: codings)
                var largest = 0
                let result = run(decoder, delivery, maxPiece: &largest)
                guard case .failure(.invalidData(coding: .zstd, offset: _)) = result else {
                    Issue.record("\(codings), \(delivery): expected invalid zstd data, got \(result)")
                    continue
                }
            }
        }
    }

    @Test func aDictionaryIDOfZeroMeansNoDictionary() throws {
        // RFC 8878 §3.1.1.1.3: "a value of 0 has the same meaning as no Dictionary_ID". A frame
        // with a 1-byte ID of 0 and a last raw block "hi" decodes.
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x21, 0x00, 0x02, 0x11, 0x00, 0x00, 0x68, 0x69]
        try Self.expectEveryDelivery(frame, codings: [.zstd], .success(Array("hi".utf8)))
    }

    @Test func aSkippableZstdFrameIsSkipped() throws {
        let skippable: [UInt8] = [0x5A, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 0xAA, 0xBB, 0xCC]
        try Self.expectEveryDelivery(
            skippable + TestZstdEncoder.compress(sampleText), codings: [.zstd], .success(sampleText))
    }

    @Test func corruptBrotliDataIsInvalidData() throws {
        var encoded = TestBrotliEncoder.compress(ContentDecoderLimitTests.text(count: 3_000))
        for index in stride(from: 4, to: encoded.count - 1, by: 3) { encoded[index] ^= 0xA5 }
        let result = decodeAll(encoded, fieldValues: ["br"])
        guard case .failure(.invalidData(coding: .brotli, offset: _)) = result else {
            Issue.record("expected invalid data, got \(result)")
            return
        }
    }

    /// RFC 9659 §3: a zstd window above 8 MiB may be refused; Wick refuses it, which caps the
    /// decoder's memory. 8 MiB itself decodes.
    @Test func aZstdWindowAboveEightMebibytesIsRefusedAndEightDecodes() throws {
        func frame(windowLog: Int32) -> [UInt8] {
            // A first `continue` call hides the size, so the frame header keeps the whole window.
            let encoder = TestZstdEncoder(windowLog: windowLog)
            var encoded: [UInt8] = []
            encoder.compress(Array(sampleText.prefix(10)), finish: false) { encoded += $0 }
            encoder.compress(Array(sampleText.dropFirst(10)), finish: true) { encoded += $0 }
            return encoded
        }
        #expect(
            decodeAll(frame(windowLog: ZstdDecompressor.maximumWindowLog), fieldValues: ["zstd"])
                == .success(sampleText))
        let result = decodeAll(frame(windowLog: ZstdDecompressor.maximumWindowLog + 1), fieldValues: ["zstd"])
        guard case .failure(.invalidHeader(coding: .zstd, offset: _)) = result else {
            Issue.record("expected the window to be refused, got \(result)")
            return
        }
    }

    @Test func brotliAndZstdStackWithGzip() throws {
        let stacked = TestZstdEncoder.compress(TestBrotliEncoder.compress(Deflater.compress(sampleText, .gzip)))
        try Self.expectEveryDelivery(stacked, codings: [.gzip, .brotli, .zstd], .success(sampleText))
    }

    @Test func oneDecoderIsResetAcrossEveryCoding() throws {
        let decoder = try ContentDecoder(codings: [.gzip])
        var largest = 0
        let bodies: [(ContentCoding, [UInt8])] = [
            (.gzip, Deflater.compress(sampleText, .gzip)), (.brotli, TestBrotliEncoder.compress(sampleText)),
            (.brotli, TestBrotliEncoder.compress(sampleText)), (.zstd, TestZstdEncoder.compress(sampleText)),
            (.zstd, TestZstdEncoder.compress(sampleText)), (.deflate, Deflater.compress(sampleText, .zlib)),
        ]
        for (coding, body) in bodies {
            try decoder.reset(codings: [coding])
            #expect(run(decoder, .chunks(body, size: 7), maxPiece: &largest) == .success(sampleText), "\(coding)")
        }
        // A body cut short leaves nothing behind for the next one.
        try decoder.reset(codings: [.zstd])
        let zstd = TestZstdEncoder.compress(sampleText)
        #expect(
            run(decoder, .whole(Array(zstd.prefix(9))), maxPiece: &largest)
                == .failure(.truncated(coding: .zstd, offset: 9)))
        try decoder.reset(codings: [.zstd])
        #expect(run(decoder, .whole(zstd), maxPiece: &largest) == .success(sampleText))
    }

    @Test func acceptEncodingAdvertisesExactlyTheDecodableCodings() throws {
        #expect(ContentCoding.acceptEncodingValue == "gzip, deflate, br, zstd")
        for coding in ContentCoding.list(fromFieldValues: [ContentCoding.acceptEncodingValue]) {
            #expect(try ContentDecoder(codings: [coding]).decodesBody, "\(coding)")
        }
    }
}
