// Fuzzes JSONParser: any bytes must parse or throw a JSONParsingError whose offset lies within the
// input, never trap or exhaust the stack; a value that parses prints as JSON that parses and
// prints the same again.
//
// Input: the whole input is the body; its first byte also picks a depth limit (hostile nesting
// reaches every limit quickly).
import CFuzzDriver
import FoundationEssentials
import Wick

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzJSONParser) }
}

private let depthLimits = [1, 2, 16, JSONParser.defaultMaximumDepth]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSONParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: start, count: count))
    let depth = depthLimits[Int(bytes.first ?? 0) % depthLimits.count]
    do {
        let value = try JSONParser.parse(bytes, maximumDepth: depth)
        let text = value.description
        // Printing never nests deeper than the value, so the same limit applies.
        guard let again = try? JSONParser.parse(Data(text.utf8), maximumDepth: depth), again.description == text
        else { fatalError("\(text) did not parse back to itself") }
    } catch {
        precondition(error.offset >= 0 && error.offset <= count, "offset \(error.offset) outside \(count) bytes")
    }
    return 0
}
