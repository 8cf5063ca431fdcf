// Wick's response parser in the benchmark loop: one parser reused for every head.
import WickCore
import WickHTTP1

/// Runs `HTTPResponseParser` over one input, whole or in pieces, reusing one parser (the
/// steady state of a keep-alive connection).
final class WickResponseParserRunner {
    let input: ByteInput
    let expectedFieldCount: Int
    /// Where the four pieces end (computed once: the loop must not allocate).
    let fourPieceEnds: [Int]
    private var parser = HTTPResponseParser()

    init(input: ByteInput, expectedFieldCount: Int) {
        self.input = input
        self.expectedFieldCount = expectedFieldCount
        fourPieceEnds = input.pieceEnds(4)
    }

    /// Parses the whole input `iterations` times; returns a checksum of the heads.
    func runWhole(_ iterations: Int) -> Int {
        Self.parseWhole(&parser, input.buffer, iterations: iterations, fields: expectedFieldCount)
    }

    /// Parses the input delivered in four pieces `iterations` times.
    func runFourPieces(_ iterations: Int) -> Int {
        Self.parsePieces(
            &parser, input.buffer, ends: fourPieceEnds, iterations: iterations,
            fields: expectedFieldCount)
    }

    private static func parseWhole(
        _ parser: inout HTTPResponseParser, _ bytes: UnsafeRawBufferPointer, iterations: Int, fields: Int
    ) -> Int {
        var checksum = 0
        do {
            for _ in 0..<iterations {
                parser.expectResponse(to: .get)
                let step = try parser.parse(bytes)
                guard case .head(let head) = step.event, step.consumed == bytes.count,
                    head.fields.count == fields
                else { fatalError("the head did not parse whole: \(step.event)") }
                checksum &+= head.fields.count &+ head.status.rawValue
                parser.reset()
            }
        } catch {
            fatalError("Wick's parser rejected the benchmark input: \(error)")
        }
        return checksum
    }

    private static func parsePieces(
        _ parser: inout HTTPResponseParser, _ bytes: UnsafeRawBufferPointer, ends: [Int], iterations: Int,
        fields: Int
    ) -> Int {
        var checksum = 0
        do {
            for _ in 0..<iterations {
                parser.expectResponse(to: .get)
                var start = 0
                for end in ends {
                    let step = try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    switch step.event {
                    case .needMoreData where end != bytes.count:
                        break
                    case .head(let head) where end == bytes.count && head.fields.count == fields:
                        checksum &+= head.fields.count &+ head.status.rawValue
                    default:
                        fatalError("unexpected event for the piece ending at \(end): \(step.event)")
                    }
                    start = end
                }
                parser.reset()
            }
        } catch {
            fatalError("Wick's parser rejected the benchmark input: \(error)")
        }
        return checksum
    }
}
