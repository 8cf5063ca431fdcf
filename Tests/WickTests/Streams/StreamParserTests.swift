// The stream parsers under every chunking, and the flow gauge's marks at N and N+1.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

extension DataStreamParser {
    /// The elements `chunk` completes, in a list of their own.
    mutating func parsed(_ chunk: Data) -> [Element] {
        var elements: [Element] = []
        parse(chunk, into: &elements)
        return elements
    }

    /// The elements left at the end, in a list of their own.
    mutating func finished() -> [Element] {
        var elements: [Element] = []
        finish(into: &elements)
        return elements
    }
}

/// Runs `parser` over `input` cut at `cuts` (sorted offsets), then finishes it.
private func run<Parser: DataStreamParser>(_ parser: Parser, _ input: [UInt8], cuts: [Int]) -> [Parser.Element] {
    var parser = parser
    var output: [Parser.Element] = []
    var start = 0
    for end in cuts + [input.count] where end >= start {
        output += parser.parsed(Data(input[start..<end]))
        start = end
    }
    return output + parser.finished()
}

/// Every way to cut `input` in two, every way in three (for short inputs), and byte by byte.
private func chunkings(of count: Int) -> [[Int]] {
    var all: [[Int]] = [[], Array(1..<max(count, 1))]
    for first in 0...count { all.append([first]) }
    if count <= 40 {
        for first in 0...count { for second in first...count { all.append([first, second]) } }
    }
    return all
}

private struct Point: Codable, Equatable {
    let x: Int
    let label: String
}

struct StreamParserTests {
    @Test func utf8TextSplitInsideCharactersComesWhole() {
        let text = "aé€𝄞z – ünïcödé 👩‍💻 end"
        let input = Array(text.utf8)
        for cuts in chunkings(of: input.count) {
            let strings = run(UTF8StreamParser(), input, cuts: cuts)
            #expect(strings.joined() == text, "cuts \(cuts)")
            #expect(!strings.contains { $0.contains("\u{FFFD}") }, "cuts \(cuts)")
        }
    }

    @Test func utf8InvalidBytesAndATruncatedEndBecomeReplacementCharacters() {
        // 0xFF is never valid; the body ends with the first two bytes of a three-byte €.
        let input: [UInt8] = [0x61, 0xFF, 0x62, 0xE2, 0x82]
        for cuts in chunkings(of: input.count) {
            #expect(run(UTF8StreamParser(), input, cuts: cuts).joined() == "a\u{FFFD}b\u{FFFD}", "cuts \(cuts)")
        }
    }

    @Test func utf8ResetForgetsACarriedPartialCharacter() {
        var parser = UTF8StreamParser()
        #expect(parser.parsed(Data([0x61, 0xE2, 0x82])) == ["a"])
        parser.reset()
        #expect(parser.parsed(Data("b".utf8)) == ["b"])
        #expect(parser.finished().isEmpty)
    }

    @Test func ndjsonLinesSplitAnywhereDecodeTheSameWithABadLine() throws {
        let body = "{\"x\":1,\"label\":\"é\"}\n\n{\"x\":2,\"label\":\"b\"}\r\nnot json\n  \n{\"x\":3,\"label\":\"c\"}"
        let input = Array(body.utf8)
        for cuts in chunkings(of: input.count) {
            let parser = NDJSONStreamParser<Point>(
                decoder: JSONDecoder(), preprocessor: PassthroughPreprocessor(), maximumLineBytes: 1 << 20)
            let results = run(parser, input, cuts: cuts)
            #expect(results.count == 4, "cuts \(cuts)")
            guard results.count == 4 else { continue }
            #expect(try results[0].get() == Point(x: 1, label: "é"))
            #expect(try results[1].get() == Point(x: 2, label: "b"))
            #expect(try results[3].get() == Point(x: 3, label: "c"))
            guard case .failure(.responseSerializationFailed(.lineDecodingFailed(line: 4, _))) = results[2] else {
                Issue.record("expected line 4 to fail to decode, got \(results[2]) for cuts \(cuts)")
                continue
            }
        }
    }

    @Test(arguments: [8, 9])
    func ndjsonLineBoundIsHeldAtNAndRefusedAtNPlusOne(length: Int) throws {
        // `"abcdef"` is 8 bytes; the bound is 8.
        let value = "\"" + String(repeating: "a", count: length - 2) + "\""
        let input = Array((value + "\r\n\"ok\"\n").utf8)
        for cuts in chunkings(of: input.count) {
            let parser = NDJSONStreamParser<String>(
                decoder: JSONDecoder(), preprocessor: PassthroughPreprocessor(), maximumLineBytes: 8)
            let results = run(parser, input, cuts: cuts)
            #expect(results.count == 2, "cuts \(cuts)")
            guard results.count == 2 else { continue }
            if length <= 8 {
                #expect(try results[0].get() == String(repeating: "a", count: length - 2))
            } else {
                guard case .failure(.responseSerializationFailed(.lineTooLong(line: 1, limit: 8))) = results[0] else {
                    Issue.record("expected lineTooLong, got \(results[0]) for cuts \(cuts)")
                    continue
                }
            }
            #expect(try results[1].get() == "ok")
        }
    }

    @Test func ndjsonPreprocessorRunsPerLineAndItsFailureNamesTheLine() throws {
        struct Refuse: DataPreprocessor {
            func preprocess(_ data: Data) throws -> Data {
                if data.first == UInt8(ascii: "!") { throw CocoaError(.formatting) }
                return data
            }
        }
        let parser = NDJSONStreamParser<Int>(decoder: JSONDecoder(), preprocessor: Refuse(), maximumLineBytes: 64)
        let results = run(parser, Array("1\n!2\n3\n".utf8), cuts: [])
        #expect(results.count == 3)
        #expect(try results[0].get() == 1 && results[2].get() == 3)
        guard case .failure(.responseSerializationFailed(.lineDecodingFailed(line: 2, let error))) = results[1] else {
            Issue.record("expected line 2 to fail, got \(results[1])")
            return
        }
        #expect(error is CocoaError)
        #expect(
            "\(WickError.responseSerializationFailed(reason: .lineDecodingFailed(line: 2, error: error)))".contains(
                "line 2"))
    }

    @Test func gaugeIsFullAboveTheHighMarkAndTakesMoreAtTheLowMark() {
        var gauge = StreamFlowGauge(policy: .init(highWaterMark: 100, lowWaterMark: 40))
        let atMark = gauge.added(100)  // N: at the mark is not over it
        let overMark = gauge.added(1)  // N + 1
        let stillFull = gauge.added(50)
        #expect(!atMark && overMark && !stillFull)
        let aboveLow = gauge.removed(110)  // 41: above the low mark
        let atLow = gauge.removed(1)  // 40: at the low mark
        let empty = gauge.removed(40)
        #expect(!aboveLow && atLow && !empty)
        #expect(gauge.peakBytes == 151)
        let fullAgain = gauge.added(101)
        let wasFull = gauge.cleared()
        #expect(fullAgain && wasFull)
        #expect(gauge.bytes == 0 && !gauge.isFull)
    }

    @Test func bytesPolicyResumesAtAQuarter() {
        #expect(DataStreamRequest.BufferingPolicy.bytes(1000) == .init(highWaterMark: 1000, lowWaterMark: 250))
        #expect(DataStreamRequest.BufferingPolicy.default.highWaterMark == 1 << 20)
    }
}
