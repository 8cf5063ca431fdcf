// Seeded random inputs: golden cases cut into random pieces, and random field lines checked
// against a plain byte-by-byte model of RFC 9112 §5 (which the eight-byte scans must match).
import Testing
import WickCore
import WickHTTP1
import WickTestSupport

@Suite struct ResponseParserRandomTests {
    /// Cuts `input` into 2...8 pieces at random offsets (empty pieces included).
    static func randomCut(_ input: [UInt8], using generator: inout SeededRandom) -> [ArraySlice<UInt8>] {
        let count = Int.random(in: 1...7, using: &generator)
        let offsets = ((0..<count).map { _ in Int.random(in: 0...input.count, using: &generator) } + [0, input.count])
            .sorted()
        return zip(offsets, offsets.dropFirst()).map { input[$0..<$1] }
    }

    @Test func goldenCasesAgreeUnderRandomCuts() throws {
        var generator = SeededRandom(seed: 0x5EED_0001)
        for golden in try ResponseParserGoldenTests.loadCases() {
            let harness = try ResponseParserHarness(options: golden.options)
            let reference = harness.run([golden.input[...]])
            for _ in 0..<8 {
                let pieces = Self.randomCut(golden.input, using: &generator)
                let outcome = harness.run(pieces)
                #expect(outcome == reference, "\(golden) cut into \(pieces.map(\.count))")
                if outcome != reference { return }
            }
        }
    }

    /// Interesting bytes for mutations: line structure, whitespace, separators, digits.
    static let mutationBytes: [UInt8] = [
        0x0D, 0x0A, 0x20, 0x09, 0x3A, 0x3B, 0x2C, 0x00, 0x7F, 0xFF, 0x30, 0x39, 0x61, 0x46,
    ]

    @Test func mutatedGoldenInputsAgreeAcrossCuts() throws {
        // A small differential fuzzer: whatever the bytes, every cut must produce the same
        // events (the in-place fast path and the line accumulator must never disagree), and
        // nothing may trap.
        var generator = SeededRandom(seed: 0x5EED_0003)
        var variants = 0
        for golden in try ResponseParserGoldenTests.loadCases() where !golden.input.isEmpty {
            let harness = try ResponseParserHarness(options: golden.options)
            for _ in 0..<6 {
                var input = golden.input
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let position = Int.random(in: 0..<input.count, using: &generator)
                    let byte = Self.mutationBytes.randomElement(using: &generator)!
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: input[position] = byte
                    case 1: input.insert(byte, at: position)
                    default: if input.count > 1 { input.remove(at: position) }
                    }
                }
                let reference = harness.run([input[...]])
                for pieces in [Delivery.byteAtATime(input).pieces, Self.randomCut(input, using: &generator)] {
                    let outcome = harness.run(pieces)
                    #expect(outcome == reference, "\(golden) mutated to \(GoldenCase.escape(input))")
                    if outcome != reference { return }
                }
                variants += 1
            }
        }
        #expect(variants > 1000)
    }

    /// Bytes to draw names and values from: common and rare token bytes, whitespace, controls,
    /// DEL, obs-text, and the colon.
    static let alphabet: [UInt8] =
        Array("aZ09-_!~`|.:".utf8) + [0x20, 0x20, 0x09, 0x00, 0x0D, 0x01, 0x1F, 0x7F, 0x80, 0xFF, 0x40, 0x2C]

    /// What the parser must make of `lines` (field lines without terminators): the fields, or
    /// the first error with its offset in the whole input. A line that starts with SP or HTAB
    /// continues the previous field (RFC 9112 §5.2: the fold becomes one SP per byte) unless
    /// `rejectFolds`; before any field it is always an error (§2.2).
    static func model(
        lines: [[UInt8]],
        terminators: [[UInt8]],
        headStart: Int,
        rejectFolds: Bool
    ) -> Result<[String], HTTPParseError> {
        var fields: [(name: [UInt8], value: [UInt8], valueEnd: Int)] = []
        var offset = headStart
        func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        for (line, terminator) in zip(lines, terminators) {
            defer { offset += line.count + terminator.count }
            let lineFeed = offset + line.count + terminator.count - 1
            if terminator == [0x0A] { return .failure(HTTPParseError(.bareLF, at: lineFeed)) }
            if let first = line.first, isWhitespace(first) {
                if fields.isEmpty { return .failure(HTTPParseError(.whitespaceBeforeFirstField, at: offset)) }
                if rejectFolds { return .failure(HTTPParseError(.obsoleteLineFolding, at: offset)) }
                let start = line.firstIndex { !isWhitespace($0) } ?? line.count
                if let bad = line[start...].firstIndex(where: isControl) {
                    return .failure(HTTPParseError(.invalidFieldValue, at: offset + bad))
                }
                guard let end = line.lastIndex(where: { !isWhitespace($0) }).map({ $0 + 1 }) else { continue }
                let continuation = Array(line[start..<end])
                if fields[fields.count - 1].value.isEmpty {
                    fields[fields.count - 1].value = continuation
                } else {
                    let gap = offset + start - fields[fields.count - 1].valueEnd
                    fields[fields.count - 1].value += Array(repeating: 0x20, count: gap) + continuation
                }
                fields[fields.count - 1].valueEnd = offset + end
                continue
            }
            func isToken(_ byte: UInt8) -> Bool {
                Array("!#$%&'*+-.^_`|~".utf8).contains(byte) || (0x30...0x39).contains(byte)
                    || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            }
            var index = 0
            while index < line.count && isToken(line[index]) { index += 1 }
            guard index < line.count else { return .failure(HTTPParseError(.missingColon, at: offset + line.count)) }
            switch line[index] {
            case 0x3A where index > 0: break
            case 0x20, 0x09: return .failure(HTTPParseError(.whitespaceBeforeColon, at: offset + index))
            default: return .failure(HTTPParseError(.invalidFieldName, at: offset + index))
            }
            let name = Array(line[..<index])
            index += 1
            while index < line.count && isWhitespace(line[index]) { index += 1 }
            var value = Array(line[index...])
            for (position, byte) in value.enumerated() where isControl(byte) {
                return .failure(HTTPParseError(.invalidFieldValue, at: offset + index + position))
            }
            while let last = value.last, isWhitespace(last) { value.removeLast() }
            fields.append((name, value, offset + index + value.count))
        }
        return .success(
            fields.map { field in
                let text = "field \(GoldenCase.escape(field.name)):"
                return field.value.isEmpty ? text : text + " " + GoldenCase.escape(field.value)
            })
    }

    @Test(arguments: [false, true])
    func randomFieldLinesMatchTheModel(rejectFolds: Bool) throws {
        var generator = SeededRandom(seed: 0x5EED_0002)
        let harness = try ResponseParserHarness(options: rejectFolds ? ["rejectObsoleteLineFolding": "true"] : [:])
        let status = Array("HTTP/1.1 200 OK\r\n".utf8)
        var accepted = 0
        var acceptedWithFold = 0
        var rejected: Set<HTTPParseError.Kind> = []
        for round in 0..<400 {
            var lines: [[UInt8]] = []
            var terminators: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                // Mostly well-formed lines (a long name, a colon, a long value) with a few
                // random bytes mixed in, so errors land at every position of a word.
                var line = Array("X-Field-Name-\(round)".utf8)
                if Bool.random(using: &generator) { line.append(Self.alphabet.randomElement(using: &generator)!) }
                line += Array(": some value of moderate length ".utf8)
                for _ in 0..<Int.random(in: 0...20, using: &generator) {
                    let byte =
                        Int.random(in: 0..<5, using: &generator) == 0
                        ? Self.alphabet.randomElement(using: &generator)!
                        : UInt8.random(in: 0x61...0x7A, using: &generator)
                    line.insert(byte, at: Int.random(in: 0...line.count, using: &generator))
                }
                if Int.random(in: 0..<15, using: &generator) == 0 { line = Array("No-Colon-\(round)".utf8) }
                // Now and then a continuation line (obs-fold, or whitespace before the first field).
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    line.insert([0x20, 0x09].randomElement(using: &generator)!, at: 0)
                }
                // A line feed inside would make two lines; the model handles terminators only.
                line.removeAll { $0 == 0x0A }
                while line.last == 0x0D { line.removeLast() }
                lines.append(line)
                terminators.append(Int.random(in: 0..<30, using: &generator) == 0 ? [0x0A] : [0x0D, 0x0A])
            }
            var input = status
            for (line, terminator) in zip(lines, terminators) { input += line + terminator }
            input += Array("Content-Length: 0\r\n\r\n".utf8)

            let expected: [String]
            switch Self.model(lines: lines, terminators: terminators, headStart: status.count, rejectFolds: rejectFolds) {
            case .success(let fields):
                accepted += 1
                if lines.dropFirst().contains(where: { $0.first == 0x20 || $0.first == 0x09 }) { acceptedWithFold += 1 }
                expected = ["head 200 HTTP/1.1 length:0 OK"] + fields + ["field Content-Length: 0", "end reusable"]
            case .failure(let error):
                rejected.insert(error.kind)
                expected = ["error=\(error.kind.rawValue) at=\(error.offset)"]
            }
            for pieces in [[input[...]], Delivery.byteAtATime(input).pieces, Self.randomCut(input, using: &generator)] {
                let outcome = harness.run(pieces)
                #expect(outcome.events == expected, "round \(round): \(GoldenCase.escape(input))")
                if outcome.events != expected { return }
            }
        }
        // The generator must exercise both outcomes and every field-line error of the mode.
        #expect(accepted > 40)
        #expect(rejectFolds ? acceptedWithFold == 0 : acceptedWithFold > 0)
        let foldErrors: Set<HTTPParseError.Kind> =
            rejectFolds ? [.obsoleteLineFolding, .whitespaceBeforeFirstField] : [.whitespaceBeforeFirstField]
        #expect(
            rejected
                == foldErrors.union([.bareLF, .missingColon, .whitespaceBeforeColon, .invalidFieldName, .invalidFieldValue])
        )
    }
}
