// Content decoder limits, each at N and N+1, and a real decompression bomb under the defaults.
import Testing
import WickTestSupport

@testable import WickHTTP1

@Suite struct ContentDecoderLimitTests {
    /// Text that compresses well but not absurdly: about 10×.
    static func text(count: Int) -> [UInt8] {
        var generator = SeededRandom(seed: 42)
        let words = ["wick", "gzip", "deflate", "limit", "ratio", "piece", "zlib", "body", "http", "\n"].map {
            Array($0.utf8)
        }
        var result: [UInt8] = []
        result.reserveCapacity(count + 16)
        while result.count < count {
            result += words[Int(generator.next() % UInt64(words.count))]
            result.append(0x20)
        }
        return Array(result.prefix(count))
    }

    @Test func defaultsAreTheDocumentedValues() {
        let limits = ContentDecoderLimits.default
        #expect(limits.maximumDecodedSize == 256 * 1024 * 1024)
        #expect(limits.maximumExpansionRatio == 100)
        #expect(limits.expansionRatioFloor == 1024 * 1024)
        #expect(limits.maximumCodingLayers == 3)
        #expect(limits.outputPieceSize == 64 * 1024)
    }

    @Test func decodedSizeAtTheLimitPassesAndOneMoreFails() throws {
        let limit = 10_000
        let limits = ContentDecoderLimits(maximumDecodedSize: limit, outputPieceSize: 512)
        let atLimit = Self.text(count: limit)
        let overLimit = Self.text(count: limit + 1)
        for delivery in [Delivery.whole, Delivery.byteAtATime] {
            #expect(try decodeCounting(Deflater.compress(atLimit, .gzip), delivery, limits) == .success(limit))
            // Exactly the limit is handed out, then the error: zlib never produced more than one
            // byte past it.
            let result = try decodeCounting(Deflater.compress(overLimit, .gzip), delivery, limits)
            #expect(result == .failure(.decodedSizeLimitExceeded(limit: limit), delivered: limit))
        }
    }

    @Test func expansionRatioAtTheLimitPassesAndOneLessFails() throws {
        let decoded = Self.text(count: 20_000)
        let encoded = Deflater.compress(decoded, .gzip)
        let ratio = (decoded.count + encoded.count - 1) / encoded.count  // ceil: the smallest that fits
        #expect(ratio > 2)
        let fits = ContentDecoderLimits(maximumExpansionRatio: ratio, expansionRatioFloor: 0)
        #expect(try decodeCounting(encoded, Delivery.whole, fits) == .success(decoded.count))
        let tooTight = ContentDecoderLimits(maximumExpansionRatio: ratio - 1, expansionRatioFloor: 0)
        #expect(
            try decodeCounting(encoded, Delivery.whole, tooTight)
                == .failure(
                    .expansionRatioLimitExceeded(limit: ratio - 1, encoded: encoded.count, decoded: decoded.count),
                    delivered: 0)
        )
    }

    @Test func ratioFloorAtTheDecodedSizePassesAndOneLessFails() throws {
        let decoded = Self.text(count: 5_000)
        let encoded = Deflater.compress(decoded, .zlib)
        let floorAtSize = ContentDecoderLimits(maximumExpansionRatio: 1, expansionRatioFloor: decoded.count)
        #expect(try decodeCounting(encoded, Delivery.whole, floorAtSize, coding: .deflate) == .success(decoded.count))
        let floorBelow = ContentDecoderLimits(maximumExpansionRatio: 1, expansionRatioFloor: decoded.count - 1)
        let result = try decodeCounting(encoded, Delivery.whole, floorBelow, coding: .deflate)
        #expect(
            result
                == .failure(
                    .expansionRatioLimitExceeded(limit: 1, encoded: encoded.count, decoded: decoded.count), delivered: 0
                ))
    }

    @Test func outputPiecesAreAtMostThePieceSize() throws {
        let size = 4096
        let limits = ContentDecoderLimits(outputPieceSize: size)
        for (count, expectedPieces) in [(size, [size]), (size + 1, [size, 1])] {
            let decoder = try ContentDecoder(codings: [.gzip], limits: limits)
            var pieces: [Int] = []
            try decoder.decode(Deflater.compress(Self.text(count: count), .gzip)[...]) { pieces.append($0.count) }
            try decoder.finish()
            #expect(pieces == expectedPieces)
        }
    }

    @Test func codingLayersAtTheLimitDecodeAndOneMoreIsRefused() throws {
        let limit = ContentDecoderLimits.default.maximumCodingLayers
        var encoded = sampleText
        for _ in 0..<limit { encoded = Deflater.compress(encoded, .gzip) }
        let atLimit = Array(repeating: ContentCoding.gzip, count: limit)
        #expect(decodeAll(encoded, fieldValues: atLimit.map(\.description)) == .success(sampleText))
        // identity does not count as a layer.
        #expect(decodeAll(encoded, fieldValues: ["identity"] + atLimit.map(\.description)) == .success(sampleText))
        #expect(throws: ContentDecodingError.tooManyCodings(count: limit + 1, limit: limit)) {
            try ContentDecoder(codings: atLimit + [.deflate])
        }
    }

    @Test func stackedLayersAreLimitedOnEveryLayerAgainstTheWireBytes() throws {
        // The inner layer's output counts against the ratio to the bytes read from the wire.
        let zeros = [UInt8](repeating: 0, count: 4 << 20)
        let twice = Deflater.compress(Deflater.compress(zeros, .gzip), .gzip)
        guard
            case .failure(.expansionRatioLimitExceeded(limit: 100, encoded: let encoded, decoded: _)) =
                decodeAll(twice, fieldValues: ["gzip, gzip"])
        else {
            Issue.record("expected the ratio limit")
            return
        }
        #expect(encoded <= twice.count)
        // The outer layer's output (the inner gzip stream) is held to the size limit too.
        let inner = Deflater.compress(Self.text(count: 50_000), .gzip)
        let limits = ContentDecoderLimits(maximumDecodedSize: inner.count - 1)
        #expect(
            decodeAll(Deflater.compress(inner, .gzip), fieldValues: ["gzip", "gzip"], limits: limits)
                == .failure(.decodedSizeLimitExceeded(limit: inner.count - 1))
        )
    }

    /// gzip of 1 GiB of zeros, produced by streaming deflate 1 MiB at a time and fed to the decoder
    /// as it is produced (never held whole): the default limits stop it after about 1 MiB of output.
    @Test func aGigabyteBombFailsEarlyUnderTheDefaultLimits() throws {
        let outcome = try Self.feedBomb(decodedSize: 1 << 30, limits: .default)
        guard case .expansionRatioLimitExceeded(let limit, let encoded, let decoded)? = outcome.error else {
            Issue.record("expected the ratio limit, got \(String(describing: outcome.error))")
            return
        }
        #expect(limit == 100)
        #expect(decoded > ContentDecoderLimits.default.expansionRatioFloor)
        #expect(
            decoded <= ContentDecoderLimits.default.expansionRatioFloor + ContentDecoderLimits.default.outputPieceSize)
        #expect(encoded < 16 * 1024)
        #expect(outcome.largestPiece <= ContentDecoderLimits.default.outputPieceSize)
        #expect(outcome.delivered <= ContentDecoderLimits.default.expansionRatioFloor)
        // zlib at level 1 emits its first block after about 4 MiB of zeros; nothing more is made.
        #expect(outcome.megabytesGenerated <= 8)
    }

    /// The same bomb with the ratio off stops at the decoded-size limit.
    @Test func aBombWithoutARatioLimitStopsAtTheSizeLimit() throws {
        let limit = 32 * 1024 * 1024
        let limits = ContentDecoderLimits(maximumDecodedSize: limit, maximumExpansionRatio: .max)
        let outcome = try Self.feedBomb(decodedSize: 1 << 30, limits: limits)
        #expect(outcome.error == .decodedSizeLimitExceeded(limit: limit))
        #expect(outcome.delivered == limit)
        #expect(outcome.largestPiece <= limits.outputPieceSize)
        #expect(outcome.megabytesGenerated <= 40)
    }

    struct BombOutcome {
        var error: ContentDecodingError?
        var delivered = 0
        var largestPiece = 0
        var megabytesGenerated = 0
    }

    static func feedBomb(decodedSize: Int, limits: ContentDecoderLimits) throws -> BombOutcome {
        let megabyte = [UInt8](repeating: 0, count: 1 << 20)
        let deflater = Deflater(.gzip, level: 1)
        let decoder = try ContentDecoder(codings: [.gzip], limits: limits)
        var outcome = BombOutcome()
        for index in 0..<(decodedSize >> 20) {
            var compressed: [[UInt8]] = []
            deflater.compress(megabyte, finish: index == (decodedSize >> 20) - 1) { compressed.append($0) }
            outcome.megabytesGenerated += 1
            do {
                for piece in compressed {
                    try decoder.decode(piece[...]) { decoded in
                        outcome.delivered += decoded.count
                        outcome.largestPiece = max(outcome.largestPiece, decoded.count)
                    }
                }
            } catch {
                outcome.error = error
                return outcome
            }
        }
        return outcome
    }
}

/// The decoded byte count, or the error with the count handed out before it.
enum CountOutcome: Equatable {
    case success(Int)
    case failure(ContentDecodingError, delivered: Int)
}

func decodeCounting(
    _ encoded: [UInt8],
    _ delivery: ([UInt8]) -> Delivery,
    _ limits: ContentDecoderLimits,
    coding: ContentCoding = .gzip
) throws -> CountOutcome {
    let decoder = try ContentDecoder(codings: [coding], limits: limits)
    var delivered = 0
    do {
        for piece in delivery(encoded).pieces {
            try decoder.decode(piece) { delivered += $0.count }
        }
        try decoder.finish()
        return .success(delivered)
    } catch {
        return .failure(error, delivered: delivered)
    }
}
