// brotli and zstd decompression bombs under the same limits as gzip: 1 GiB of zeros, produced by
// the streaming encoders a mebibyte at a time and fed to the decoder as it is produced.
import Testing
import WickTestSupport

@testable import WickHTTP1

@Suite struct BrotliZstdBombTests {
    /// A streaming encoder of zeros for one coding.
    struct BombMaker: CustomStringConvertible, Sendable {
        let coding: ContentCoding
        /// Makes an encoder and returns its `compress(_:finish:into:)`.
        let makeEncoder: @Sendable () -> ([UInt8], Bool, ([UInt8]) -> Void) -> Void
        var description: String { coding.description }
    }

    static let makers = [
        BombMaker(coding: .brotli) { TestBrotliEncoder(quality: 1).compress },
        BombMaker(coding: .zstd) { TestZstdEncoder(level: 1).compress },
    ]

    struct Outcome {
        var error: ContentDecodingError?
        var delivered = 0
        var largestPiece = 0
        var megabytesGenerated = 0
        var encodedFed = 0
    }

    static func feedBomb(_ maker: BombMaker, decodedSize: Int, limits: ContentDecoderLimits) throws -> Outcome {
        let megabyte = [UInt8](repeating: 0, count: 1 << 20)
        let compress = maker.makeEncoder()
        let decoder = try ContentDecoder(codings: [maker.coding], limits: limits)
        var outcome = Outcome()
        let megabytes = decodedSize >> 20
        for index in 0..<megabytes {
            var compressed: [[UInt8]] = []
            compress(megabyte, index == megabytes - 1) { compressed.append($0) }
            outcome.megabytesGenerated += 1
            do {
                for piece in compressed {
                    outcome.encodedFed += piece.count
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
        do {
            try decoder.finish()
        } catch {
            outcome.error = error
        }
        return outcome
    }

    @Test(arguments: makers)
    func aGigabyteBombFailsEarlyUnderTheDefaultLimits(_ maker: BombMaker) throws {
        let defaults = ContentDecoderLimits.default
        let outcome = try Self.feedBomb(maker, decodedSize: 1 << 30, limits: defaults)
        guard case .expansionRatioLimitExceeded(let limit, let encoded, let decoded)? = outcome.error else {
            Issue.record("expected the ratio limit, got \(String(describing: outcome.error))")
            return
        }
        #expect(limit == 100)
        #expect(decoded > defaults.expansionRatioFloor)
        #expect(decoded <= defaults.expansionRatioFloor + defaults.outputPieceSize)
        #expect(encoded <= outcome.encodedFed)
        #expect(outcome.largestPiece <= defaults.outputPieceSize)
        #expect(outcome.delivered <= defaults.expansionRatioFloor)
        // The encoders emit their first output within a few mebibytes; nothing near 1 GiB is made.
        #expect(outcome.megabytesGenerated <= 64)
    }

    @Test(arguments: makers)
    func aBombWithoutARatioLimitStopsAtTheSizeLimit(_ maker: BombMaker) throws {
        let limit = 32 * 1024 * 1024
        let limits = ContentDecoderLimits(maximumDecodedSize: limit, maximumExpansionRatio: .max)
        let outcome = try Self.feedBomb(maker, decodedSize: 1 << 30, limits: limits)
        #expect(outcome.error == .decodedSizeLimitExceeded(limit: limit))
        #expect(outcome.delivered == limit)
        #expect(outcome.largestPiece <= limits.outputPieceSize)
        #expect(outcome.megabytesGenerated <= 96)
    }

    @Test(arguments: makers)
    func aSizeLimitOfNAcceptsNBytesAndRefusesNPlusOne(_ maker: BombMaker) throws {
        let limit = 10_000
        let limits = ContentDecoderLimits(maximumDecodedSize: limit, outputPieceSize: 512)
        for (size, expected) in [
            (limit, CountOutcome.success(limit)),
            (limit + 1, .failure(.decodedSizeLimitExceeded(limit: limit), delivered: limit)),
        ] {
            var encoded: [UInt8] = []
            maker.makeEncoder()(ContentDecoderLimitTests.text(count: size), true) { encoded += $0 }
            for delivery in [Delivery.whole, Delivery.byteAtATime] {
                #expect(try decodeCounting(encoded, delivery, limits, coding: maker.coding) == expected)
            }
        }
    }
}
