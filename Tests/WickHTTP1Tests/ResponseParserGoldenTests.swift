// Every golden case in Fixtures/*.txt, under every delivery pattern and with trailing bytes.
import Foundation
import Testing
import WickHTTP1
import WickTestSupport

@Suite struct ResponseParserGoldenTests {
    /// Every case of every `.txt` file in the Fixtures folder.
    static func loadCases() throws -> [GoldenCase] {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw ResponseParserHarness.HarnessError(description: "Fixtures folder missing from the test bundle")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".txt") }
            .sorted()
        return try files.flatMap { file in
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            return try GoldenCase.parse(text, file: file)
        }
    }

    /// Bytes that follow a complete message on the wire and must stay unconsumed.
    static let trailingBytes = Array("HTTP/1.1 200 OK\r\nX: trailing\r\n\r\n".utf8)

    @Test(arguments: try loadCases())
    func golden(_ golden: GoldenCase) throws {
        let harness = try ResponseParserHarness(options: golden.options)
        let reference = harness.run([golden.input[...]])
        #expect(reference.events == golden.expected, "whole input")
        guard reference.events == golden.expected else { return }

        for delivery in Delivery.all(of: golden.input).dropFirst() {
            let outcome = harness.run(delivery.pieces)
            #expect(outcome == reference, "\(delivery)")
            if outcome != reference { return }
        }

        // A message that ends by itself (not by EOF, not left incomplete) never reads past its
        // end: the same events, the same bytes consumed, with another response behind it.
        let last = golden.expected.last ?? ""
        let selfDelimited = !harness.closesAfterInput && last != "incomplete"
        if selfDelimited {
            let withTrailing = harness.run([(golden.input + Self.trailingBytes)[...]])
            var expected = reference.events
            if !last.hasPrefix("error=") {
                let extra = Self.trailingBytes.count
                if let index = expected.lastIndex(where: { $0.hasPrefix("unconsumed ") }),
                    let count = Int(expected[index].dropFirst("unconsumed ".count))
                {
                    expected[index] = "unconsumed \(count + extra)"
                } else {
                    expected.append("unconsumed \(extra)")
                }
            }
            #expect(withTrailing.events == expected, "with trailing bytes")
            #expect(withTrailing.consumed == reference.consumed, "with trailing bytes")
        }
    }

    @Test func fixturesCoverEveryErrorKind() throws {
        let expected = try Self.loadCases().flatMap(\.expected)
        let covered = Set(
            expected.compactMap { line -> String? in
                guard line.hasPrefix("error=") else { return nil }
                return String(line.dropFirst("error=".count).prefix { $0 != " " })
            })
        let missing = HTTPParseError.Kind.allCases.map(\.rawValue).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "error kinds without a golden case: \(missing)")
    }
}
