// Content decoder round trips and stream errors, every case under every delivery of its input.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

/// One round-trip case: a body as sent, the Content-Encoding field lines, and the bytes expected.
struct CodingCase: CustomStringConvertible, Sendable {
    let name: String
    let fieldValues: [String]
    let encoded: [UInt8]
    let decoded: [UInt8]
    let decodes: Bool

    var description: String { name }
}

/// Runs `decoder` over every piece of `delivery`, then `finish()`; returns the output or the error.
func run(
    _ decoder: ContentDecoder,
    _ delivery: Delivery,
    maxPiece: inout Int
) -> Result<[UInt8], ContentDecodingError> {
    var output: [UInt8] = []
    var largest = 0
    do {
        for piece in delivery.pieces {
            try decoder.decode(piece) { decoded in
                largest = max(largest, decoded.count)
                output += decoded
            }
        }
        try decoder.finish()
    } catch {
        maxPiece = largest
        return .failure(error)
    }
    maxPiece = largest
    return .success(output)
}

func decodeAll(_ input: [UInt8], fieldValues: [String], limits: ContentDecoderLimits = .default)
    -> Result<[UInt8], ContentDecodingError>
{
    var largest = 0
    do {
        let decoder = try ContentDecoder(codings: ContentCoding.list(fromFieldValues: fieldValues), limits: limits)
        return run(decoder, .whole(input), maxPiece: &largest)
    } catch {
        return .failure(error)
    }
}

let sampleText = Array(
    String(repeating: "Wick decodes gzip and deflate, one piece at a time. ", count: 5).utf8
)

@Suite struct ContentDecoderTests {
    static let otherText = Array("A second member, back to back.\n".utf8)

    static let cases: [CodingCase] = [
        CodingCase(
            name: "gzip", fieldValues: ["gzip"], encoded: Deflater.compress(sampleText, .gzip), decoded: sampleText,
            decodes: true),
        CodingCase(
            name: "x-gzip", fieldValues: ["X-GZip"], encoded: Deflater.compress(sampleText, .gzip), decoded: sampleText,
            decodes: true),
        CodingCase(
            name: "deflate, zlib-wrapped", fieldValues: ["deflate"], encoded: Deflater.compress(sampleText, .zlib),
            decoded: sampleText, decodes: true),
        CodingCase(
            name: "deflate, raw", fieldValues: ["deflate"], encoded: Deflater.compress(sampleText, .raw),
            decoded: sampleText, decodes: true),
        CodingCase(
            name: "deflate, raw, stored block", fieldValues: ["deflate"],
            encoded: Deflater.compress(sampleText, .raw, level: 0), decoded: sampleText, decodes: true),
        CodingCase(
            name: "gzip, two members",
            fieldValues: ["gzip"],
            encoded: Deflater.compress(sampleText, .gzip) + Deflater.compress(otherText, .gzip),
            decoded: sampleText + otherText,
            decodes: true
        ),
        CodingCase(
            name: "gzip, empty member between two",
            fieldValues: ["gzip"],
            encoded: Deflater.compress(otherText, .gzip) + Deflater.compress([], .gzip)
                + Deflater.compress(otherText, .gzip),
            decoded: otherText + otherText,
            decodes: true
        ),
        CodingCase(
            name: "gzip, gzip in one field",
            fieldValues: ["gzip, gzip"],
            encoded: Deflater.compress(Deflater.compress(sampleText, .gzip), .gzip),
            decoded: sampleText,
            decodes: true
        ),
        CodingCase(
            name: "gzip then deflate on two field lines",
            fieldValues: ["gzip", " deflate\t"],
            encoded: Deflater.compress(Deflater.compress(sampleText, .gzip), .zlib),
            decoded: sampleText,
            decodes: true
        ),
        CodingCase(
            name: "identity", fieldValues: ["identity"], encoded: sampleText, decoded: sampleText, decodes: false),
        CodingCase(name: "no field", fieldValues: [], encoded: sampleText, decoded: sampleText, decodes: false),
        CodingCase(
            name: "identity around gzip, empty elements",
            fieldValues: [",identity,, gzip ,"],
            encoded: Deflater.compress(sampleText, .gzip),
            decoded: sampleText,
            decodes: true
        ),
        CodingCase(
            name: "compress: untouched", fieldValues: ["compress"], encoded: Array("not LZW".utf8),
            decoded: Array("not LZW".utf8), decodes: false),
        CodingCase(
            name: "gzip, compress: untouched",
            fieldValues: ["gzip", "compress"],
            encoded: Deflater.compress(sampleText, .gzip),
            decoded: Deflater.compress(sampleText, .gzip),
            decodes: false
        ),
        CodingCase(name: "gzip, empty body", fieldValues: ["gzip"], encoded: [], decoded: [], decodes: true),
        CodingCase(name: "deflate, empty body", fieldValues: ["deflate"], encoded: [], decoded: [], decodes: true),
    ]

    @Test(arguments: cases, [ContentDecoderLimits.default.outputPieceSize, 7])
    func roundTripsUnderEveryDelivery(_ testCase: CodingCase, pieceSize: Int) throws {
        let limits = ContentDecoderLimits(outputPieceSize: pieceSize)
        let codings = ContentCoding.list(fromFieldValues: testCase.fieldValues)
        for delivery in Delivery.all(of: testCase.encoded) {
            let decoder = try ContentDecoder(codings: codings, limits: limits)
            #expect(decoder.decodesBody == testCase.decodes)
            var largest = 0
            let result = run(decoder, delivery, maxPiece: &largest)
            #expect(result == .success(testCase.decoded), "\(delivery)")
            if testCase.decodes { #expect(largest <= pieceSize, "\(delivery)") }
        }
    }

    @Test func appendsToACallerBuffer() throws {
        let decoder = try ContentDecoder(codings: [.gzip])
        var output: [UInt8] = Array("kept:".utf8)
        let encoded = Deflater.compress(sampleText, .gzip)
        try decoder.decode(encoded[..<10], appendingTo: &output)
        try decoder.decode(encoded[10...], appendingTo: &output)
        try decoder.finish()
        #expect(output == Array("kept:".utf8) + sampleText)
    }

    @Test func readsCodingsFromHeaders() throws {
        let headers: HTTPHeaders = [HTTPHeader(name: "content-encoding", value: "gzip")]
        var both = headers
        both.add(name: "Content-Encoding", value: "deflate")
        #expect(try ContentDecoder(headers: headers).codings == [.gzip])
        #expect(try ContentDecoder(headers: both).codings == [.gzip, .deflate])
        #expect(try ContentDecoder(headers: HTTPHeaders()).decodesBody == false)
    }

    @Test func resetReusesTheDecoderAcrossBodiesAndAfterAnError() throws {
        let decoder = try ContentDecoder(codings: [.gzip, .gzip])
        var largest = 0
        let twice = Deflater.compress(Deflater.compress(sampleText, .gzip), .gzip)
        #expect(run(decoder, .whole(twice), maxPiece: &largest) == .success(sampleText))
        try decoder.reset(codings: [.deflate])
        #expect(run(decoder, .whole(Deflater.compress(sampleText, .raw)), maxPiece: &largest) == .success(sampleText))
        try decoder.reset(codings: [.gzip])
        #expect(run(decoder, .whole([0x00]), maxPiece: &largest) == .failure(.invalidHeader(coding: .gzip, offset: 0)))
        try decoder.reset(codings: [.gzip])
        #expect(run(decoder, .whole(Deflater.compress(sampleText, .gzip)), maxPiece: &largest) == .success(sampleText))
        try decoder.reset(codings: [.unsupported("compress")])
        #expect(decoder.decodesBody == false)
        #expect(run(decoder, .whole([1, 2, 3]), maxPiece: &largest) == .success([1, 2, 3]))
    }

    @Test func decodingAfterAnErrorOrAfterFinishTraps() async {
        await #expect(processExitsWith: .failure) {
            let decoder = try ContentDecoder(codings: [.gzip])
            _ = try? decoder.decode([0x00][...]) { _ in }
            try decoder.decode([0x1F][...]) { _ in }
        }
        await #expect(processExitsWith: .failure) {
            let decoder = try ContentDecoder(codings: [.deflate])
            try decoder.finish()
            try decoder.finish()
        }
        await #expect(processExitsWith: .failure) {
            // A refused reset must not leave a decoder that passes compressed bytes through.
            let decoder = try ContentDecoder(codings: [.gzip])
            _ = try? decoder.reset(codings: [.gzip, .gzip, .gzip, .gzip])
            try decoder.decode([0x1F][...]) { _ in }
        }
    }

    /// The same error, at the same offset, under every delivery.
    static func expectFailure(_ input: [UInt8], codings: [ContentCoding], _ expected: ContentDecodingError) throws {
        for delivery in Delivery.all(of: input) {
            let decoder = try ContentDecoder(codings: codings)
            var largest = 0
            #expect(run(decoder, delivery, maxPiece: &largest) == .failure(expected), "\(delivery)")
        }
    }

    @Test func corruptGzipCRCIsAChecksumMismatch() throws {
        var gzip = Deflater.compress(sampleText, .gzip)
        gzip[gzip.count - 8] ^= 0x01  // first byte of the CRC-32
        try Self.expectFailure(gzip, codings: [.gzip], .checksumMismatch(coding: .gzip, offset: gzip.count - 4))
    }

    @Test func corruptGzipLengthIsAChecksumMismatch() throws {
        var gzip = Deflater.compress(sampleText, .gzip)
        gzip[gzip.count - 1] ^= 0x01  // last byte of ISIZE
        try Self.expectFailure(gzip, codings: [.gzip], .checksumMismatch(coding: .gzip, offset: gzip.count))
    }

    @Test func corruptAdlerIsAChecksumMismatch() throws {
        var zlib = Deflater.compress(sampleText, .zlib)
        zlib[zlib.count - 1] ^= 0x01
        try Self.expectFailure(zlib, codings: [.deflate], .checksumMismatch(coding: .deflate, offset: zlib.count))
    }

    @Test func badGzipHeadersAreInvalidHeaders() throws {
        let gzip = Deflater.compress(sampleText, .gzip)
        try Self.expectFailure(
            [0x1F, 0x8C] + gzip.dropFirst(2), codings: [.gzip], .invalidHeader(coding: .gzip, offset: 1))
        try Self.expectFailure(Array("<html>".utf8), codings: [.gzip], .invalidHeader(coding: .gzip, offset: 0))
        var badMethod = gzip
        badMethod[2] = 7  // zlib reads the method and flag bytes together
        try Self.expectFailure(badMethod, codings: [.gzip], .invalidHeader(coding: .gzip, offset: 4))
        var reservedFlag = gzip
        reservedFlag[3] = 0x80
        try Self.expectFailure(reservedFlag, codings: [.gzip], .invalidHeader(coding: .gzip, offset: 4))
    }

    @Test func zlibHeaderAskingForADictionaryIsAnInvalidHeader() throws {
        // CMF 0x78, FLG with FDICT (0x20) and a valid check: 0x78 0xBB, then a 4-byte DICTID.
        try Self.expectFailure(
            [0x78, 0xBB, 0, 0, 0, 1, 0x03, 0x00], codings: [.deflate], .invalidHeader(coding: .deflate, offset: 6))
    }

    @Test func invalidBlockTypeIsInvalidData() throws {
        // 0x07: BFINAL = 1, BTYPE = 11 (reserved); not a zlib header, so raw.
        try Self.expectFailure([0x07, 0x00], codings: [.deflate], .invalidData(coding: .deflate, offset: 1))
    }

    @Test func bytesAfterTheLastMemberAreTrailingGarbage() throws {
        let gzip = Deflater.compress(sampleText, .gzip)
        try Self.expectFailure(gzip + [0x00], codings: [.gzip], .trailingGarbage(coding: .gzip, offset: gzip.count))
        try Self.expectFailure(
            gzip + [0x1F, 0x00], codings: [.gzip], .trailingGarbage(coding: .gzip, offset: gzip.count + 1))
        try Self.expectFailure(
            gzip + Array("\r\n".utf8), codings: [.gzip], .trailingGarbage(coding: .gzip, offset: gzip.count))
        let zlib = Deflater.compress(sampleText, .zlib)
        try Self.expectFailure(zlib + zlib, codings: [.deflate], .trailingGarbage(coding: .deflate, offset: zlib.count))
        let raw = Deflater.compress(sampleText, .raw)
        try Self.expectFailure(raw + [0x0A], codings: [.deflate], .trailingGarbage(coding: .deflate, offset: raw.count))
    }

    @Test(arguments: [Deflater.Format.gzip, .zlib, .raw])
    func everyProperPrefixIsTruncated(_ format: Deflater.Format) throws {
        let coding: ContentCoding = format == .gzip ? .gzip : .deflate
        let full = Deflater.compress(sampleText, format)
        for length in 1..<full.count {
            let decoder = try ContentDecoder(codings: [coding])
            var output: [UInt8] = []
            try decoder.decode(full[..<length], appendingTo: &output)
            #expect(throws: ContentDecodingError.truncated(coding: coding, offset: length), "prefix \(length)") {
                try decoder.finish()
            }
            #expect(sampleText.starts(with: output))
        }
    }

    @Test func aPartialNextMemberIsTruncated() throws {
        let gzip = Deflater.compress(sampleText, .gzip)
        try Self.expectFailure(gzip + [0x1F], codings: [.gzip], .truncated(coding: .gzip, offset: gzip.count + 1))
        try Self.expectFailure(
            gzip + gzip.prefix(12), codings: [.gzip], .truncated(coding: .gzip, offset: gzip.count + 12))
    }

    @Test func errorsInAnInnerLayerNameThatLayer() throws {
        var inner = Deflater.compress(sampleText, .gzip)
        inner[inner.count - 8] ^= 0x01
        let outer = Deflater.compress(inner, .gzip)
        try Self.expectFailure(
            outer, codings: [.gzip, .gzip], .checksumMismatch(coding: .gzip, offset: inner.count - 4))
        let truncatedInner = Deflater.compress(Array(Deflater.compress(sampleText, .gzip).dropLast(3)), .gzip)
        let decoder = try ContentDecoder(codings: [.gzip, .gzip])
        var output: [UInt8] = []
        try decoder.decode(truncatedInner[...], appendingTo: &output)
        #expect(throws: ContentDecodingError.self) { try decoder.finish() }
    }
}
