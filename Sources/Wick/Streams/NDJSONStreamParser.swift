// Newline-delimited JSON: one value per line, lines reassembled across chunks, bounded in length.
import FoundationEssentials

/// Decodes newline-delimited JSON (NDJSON, JSON Lines): each line (ended by LF, an optional CR
/// before it removed) is one value of type `Value`. Lines split across chunks are reassembled;
/// empty lines (or only spaces and tabs) are skipped; a line that fails to decode is a failure
/// element (`lineDecodingFailed`, naming the line) and the next lines go on. The body's last
/// line needs no LF.
///
/// Bound: a line longer than `maximumLineBytes` (its CR and LF not counted) is never held
/// whole: it is a failure element (`lineTooLong`) as soon as the bound is passed, and its bytes
/// are skipped up to its LF. So the parser holds at most `maximumLineBytes` bytes. Each byte is
/// looked at once by the line search, whatever the chunking.
struct NDJSONStreamParser<Value: Decodable & Sendable>: DataStreamParser {
    let decoder: any DataDecoder
    let preprocessor: any DataPreprocessor
    let maximumLineBytes: Int
    /// The line in progress (the bytes after the last LF).
    private var line = Data()
    /// The number of the line in progress, from 1.
    private var lineNumber = 1
    /// The line in progress passed the bound: its bytes are dropped up to its LF.
    private var isSkippingLine = false

    init(decoder: any DataDecoder, preprocessor: any DataPreprocessor, maximumLineBytes: Int) {
        precondition(
            maximumLineBytes >= 1, "NDJSONStreamParser: maximumLineBytes \(maximumLineBytes) must be at least 1")
        self.decoder = decoder
        self.preprocessor = preprocessor
        self.maximumLineBytes = maximumLineBytes
    }

    mutating func parse(_ chunk: Data, into elements: inout [Result<Value, WickError>]) {
        var start = chunk.startIndex
        while start < chunk.endIndex {
            let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? chunk.endIndex
            if !isSkippingLine, start < end {
                // A CR just before the LF is not the line's (nor one that may turn out to be).
                let last = chunk[chunk.index(before: end)]
                let allowed = maximumLineBytes + (last == UInt8(ascii: "\r") ? 1 : 0)
                if line.count + chunk.distance(from: start, to: end) > allowed {
                    elements.append(.failure(Self.failure(.lineTooLong(line: lineNumber, limit: maximumLineBytes))))
                    line = Data()
                    isSkippingLine = true
                } else {
                    line.append(chunk[start..<end])
                }
            }
            guard let newline else { break }
            if let element = endLine() { elements.append(element) }
            start = chunk.index(after: newline)
        }
    }

    mutating func finish(into elements: inout [Result<Value, WickError>]) {
        guard !line.isEmpty || isSkippingLine, let element = endLine() else { return }
        elements.append(element)
    }

    mutating func reset() {
        line = Data()
        lineNumber = 1
        isSkippingLine = false
    }

    /// Ends the line in progress: its value, its failure, or nothing for an empty or skipped line.
    private mutating func endLine() -> Result<Value, WickError>? {
        defer {
            line = Data()
            lineNumber += 1
            isSkippingLine = false
        }
        if isSkippingLine { return nil }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return nil }
        do {
            return .success(try decoder.decode(Value.self, from: try preprocessor.preprocess(line)))
        } catch {
            return .failure(Self.failure(.lineDecodingFailed(line: lineNumber, error: error)))
        }
    }

    private static func failure(_ reason: ResponseSerializationFailureReason) -> WickError {
        .responseSerializationFailed(reason: reason)
    }
}
