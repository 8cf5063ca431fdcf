// Writes every golden case of Tests/WickHTTP1Tests/Fixtures into the corpora of the parser fuzz
// targets and of the whole-client target, with the control bytes each target's input layout expects.
//
// Usage: ExportSeeds REPOSITORY_ROOT (what `Scripts/fuzz --export-seeds` runs). Seeds it wrote
// before (files named `golden-*`) are replaced; hand-written seeds are left alone.
import Foundation
import WickTestSupport

@main enum Main {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: ExportSeeds REPOSITORY_ROOT\n".utf8))
            exit(2)
        }
        do {
            let root = URL(fileURLWithPath: arguments[1])
            let cases = try loadCases(from: root.appendingPathComponent("Tests/WickHTTP1Tests/Fixtures"))
            let corpora = root.appendingPathComponent("Fuzz/Corpus")
            let parserSeeds = cases.map { ($0, responseParserSeed($0)) }
            let chunkedSeeds = cases.compactMap { golden in chunkedDecoderSeed(golden).map { (golden, $0) } }
            try write(parserSeeds, to: corpora.appendingPathComponent("FuzzResponseParser"))
            try write(chunkedSeeds, to: corpora.appendingPathComponent("FuzzChunkedDecoder"))
            let clientSeeds = cases.enumerated().map { ($0.element, wholeClientSeed($0.element, variant: $0.offset)) }
            try write(clientSeeds, to: corpora.appendingPathComponent("FuzzWholeClient"))
            print(
                "ExportSeeds: \(parserSeeds.count) FuzzResponseParser seeds, \(chunkedSeeds.count) FuzzChunkedDecoder seeds, \(clientSeeds.count) FuzzWholeClient seeds"
            )
        } catch {
            FileHandle.standardError.write(Data("ExportSeeds: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Every case of every fixture file, in file order.
func loadCases(from folder: URL) throws -> [GoldenCase] {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(".txt") }
        .sorted()
    return try files.flatMap { file in
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        return try GoldenCase.parse(text, file: file)
    }
}

/// Names of the limits a case may set (the options that are neither flags nor methods).
let limitOptions: Set = [
    "maxStatusLineBytes", "maxFieldLineBytes", "maxHeadBytes", "maxFieldCount", "maxChunkSizeDigits",
    "maxChunkExtensionBytes", "maxTrailerBytes", "initialHeadCapacity",
]

/// Whether the case asks for chunk sizes longer than 16 digits (the targets' "wide" preset).
func wantsLongChunkSizes(_ golden: GoldenCase) -> Bool {
    (golden.options["maxChunkSizeDigits"].flatMap { Int($0) } ?? 0) > 16
}

/// FuzzResponseParser's layout: flags, methods, exchange count, one cut in the middle, the input.
func responseParserSeed(_ golden: GoldenCase) -> [UInt8] {
    var flags: UInt8 = 0
    if golden.options["rejectObsoleteLineFolding"] != nil { flags |= 1 }
    if golden.options["allowBareLF"] != nil { flags |= 2 }
    if golden.options["allowInvalidFieldBytes"] != nil { flags |= 4 }
    if golden.options["eof"] != nil { flags |= 8 }
    // Limits: the case's own values have no preset; tight limits keep its limit paths busy.
    if wantsLongChunkSizes(golden) {
        flags |= 3 << 4
    } else if !limitOptions.isDisjoint(with: golden.options.keys) {
        flags |= 1 << 4
    }
    flags |= 1 << 6
    let methods = (golden.options["methods"] ?? golden.options["method"] ?? "GET").split(separator: ",").prefix(4)
    var methodCodes: UInt8 = 0
    for (position, method) in methods.enumerated() {
        let code: UInt8 =
            switch method {
            case "HEAD": 1
            case "CONNECT": 2
            case "POST": 3
            default: 0
            }
        methodCodes |= code << (2 * position)
    }
    let cut = UInt16(golden.input.count / 2)
    return [flags, methodCodes, UInt8(methods.count - 1), UInt8(cut & 0xFF), UInt8(cut >> 8), 0, 0, 0, 0]
        + golden.input
}

/// FuzzChunkedDecoder's layout for a single chunked response: the control byte, then the bytes
/// after the head. Nil for cases that are not one chunked response with a complete head.
func chunkedDecoderSeed(_ golden: GoldenCase) -> [UInt8]? {
    guard golden.options["methods"] == nil,
        golden.expected.contains(where: { $0.hasPrefix("head 200 HTTP/1.1 chunked") })
    else { return nil }
    let headEnd = Array("\r\n\r\n".utf8)
    guard golden.input.count >= headEnd.count,
        let end = (0...(golden.input.count - headEnd.count)).first(where: {
            golden.input[$0..<$0 + headEnd.count].elementsEqual(headEnd)
        })
    else { return nil }
    var control = UInt8(golden.input.count % 8)
    if golden.options["allowBareLF"] != nil { control |= 0x08 }
    if wantsLongChunkSizes(golden) {
        control |= 1 << 4
    } else if !limitOptions.isDisjoint(with: golden.options.keys) {
        control |= 2 << 4
    }
    if golden.options["eof"] != nil { control |= 0x40 }
    return [control] + golden.input[(end + headEnd.count)...]
}

/// FuzzWholeClient's layout: the case's responses as the server's stream, answering as many
/// requests as the case has methods (GET, HEAD or POST; CONNECT is sent as GET), with automatic
/// gates at the responses' ends so that they travel on one keep-alive connection. `variant`
/// (the case's position) picks the read size and the write mode, so the seeds cover each.
func wholeClientSeed(_ golden: GoldenCase, variant: Int) -> [UInt8] {
    let methods = (golden.options["methods"] ?? golden.options["method"] ?? "GET").split(separator: ",").prefix(4)
    var methodCodes: UInt8 = 0
    for (position, method) in methods.enumerated() {
        let code: UInt8 =
            switch method {
            case "HEAD": 1
            case "POST": 2
            default: 0
            }
        methodCodes |= code << (2 * position)
    }
    let config = UInt8(methods.count - 1) | UInt8(variant % 4) << 4 | UInt8(variant / 4 % 4) << 6
    return [config, methodCodes, 0, 0] + golden.input
}

/// The seed's file name: `golden-<fixture file>-<case name as a slug>`.
func seedName(_ golden: GoldenCase) -> String {
    let file = golden.file.replacingOccurrences(of: ".txt", with: "")
    var slug = ""
    for character in golden.name.lowercased() {
        if character.isLetter && character.isASCII || character.isNumber && character.isASCII {
            slug.append(character)
        } else if !slug.hasSuffix("-") {
            slug.append("-")
        }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    return "golden-\(file)-\(slug.prefix(60))"
}

/// Replaces the `golden-*` files in `folder` with `seeds`.
func write(_ seeds: [(GoldenCase, [UInt8])], to folder: URL) throws {
    let manager = FileManager.default
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("golden-") {
        try manager.removeItem(at: folder.appendingPathComponent(name))
    }
    var used: Set<String> = []
    for (golden, bytes) in seeds {
        var name = seedName(golden)
        var suffix = 2
        while used.contains(name) {
            name = "\(seedName(golden))-\(suffix)"
            suffix += 1
        }
        used.insert(name)
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }
}

/// The fuzzer runtime linked into every executable of this package needs this entry point; the
/// exporter has its own `main` and never hands control to libFuzzer, so it is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func unusedFuzzEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    0
}
