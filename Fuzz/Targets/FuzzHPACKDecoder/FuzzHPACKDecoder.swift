// Fuzzes the HPACK decoder (RFC 7541) with arbitrary header blocks: no trap, bounded output, a
// table that never passes its limits, and every accepted block re-encodes to the same fields.
//
// Input: byte 0, byte 1, then header blocks.
//   byte 0   bits 0-1 the advertised table size (`tableSizes`), bits 2-3 the header list limit
//            (`listLimits`), bit 4 the decoder lowers its table size to 0 after the first block
//   byte 1   where the rest is cut into two blocks (scaled to its length)
//
// Checks (a failed check traps, which libFuzzer reports):
// - Decoding never traps; the table's size stays within its capacity and the capacity within the
//   advertised size; a block either fails with an `HPACKError` whose offset lies within it, or
//   decodes to a list within the header list limit.
// - After `headerListTooLarge` the decoder stays in step: it decodes the next block as a fresh
//   decoder that saw the same blocks would.
// - Every accepted list, encoded by `HPACKEncoder` and decoded by a fresh decoder, gives the same
//   names and values.
import CFuzzDriver
import WickHTTP2

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzHPACKDecoder) }
}

let tableSizes = [0, 64, 4096, 65_536]
let listLimits = [0, 100, 4096, 1 << 20]

/// libFuzzer's entry: runs one input (see the top of this file); traps when a check fails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHPACKDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let control = input[0]
    let tableSize = tableSizes[Int(control & 3)]
    let listLimit = listLimits[Int(control >> 2 & 3)]
    let rest = Array(input.dropFirst(2))
    let cut = rest.isEmpty ? 0 : Int(input[1]) * rest.count / 256
    let blocks = [rest[..<cut], rest[cut...]]

    var decoder = HPACKDecoder(maxTableSize: tableSize, maxHeaderListSize: listLimit)
    var unlimited = HPACKDecoder(maxTableSize: tableSize, maxHeaderListSize: Int.max)
    for (index, block) in blocks.enumerated() {
        let limited = Result { () throws(HPACKError) in try decoder.decode(block).fields }
        let reference = Result { () throws(HPACKError) in try unlimited.decode(block).fields }
        let (size, capacity) = decoder.dynamicTableSize
        precondition(
            size <= capacity && capacity <= max(tableSize, 4096), "table \(size)/\(capacity), advertised \(tableSize)")
        precondition(decoder.dynamicTableSize == unlimited.dynamicTableSize, "the list limit changed the table")
        switch (limited, reference) {
        case (.success(let fields), .success(let same)):
            precondition(fields == same, "the list limit changed an accepted list")
            precondition(fields.reduce(0) { $0 + $1.hpackSize } <= listLimit, "a list over its limit was accepted")
            checkRoundTrip(fields)
        case (.failure(let error), .success(let fields)):
            precondition(
                error.kind == .headerListTooLarge,
                "only the list limit may fail a block the reference accepts: \(error)")
            precondition(fields.reduce(0) { $0 + $1.hpackSize } > listLimit, "a list within its limit was refused")
            precondition(error.offset == block.count, "the list limit fails at the block's end")
        case (.failure(let error), .failure(let same)):
            precondition(error == same || error.kind == .headerListTooLarge, "\(error) vs \(same)")
            precondition(error.offset >= 0 && error.offset <= block.count, "offset \(error.offset) outside the block")
            if error.kind != .headerListTooLarge { return 0 }  // Out of step: the connection would end.
        case (.success, .failure(let error)):
            preconditionFailure("the limited decoder accepted what the reference refused: \(error)")
        }
        if index == 0 && control & 0x10 != 0 {
            decoder.setMaxTableSize(0)
            unlimited.setMaxTableSize(0)
        }
    }
    return 0
}

/// Encodes `fields` and decodes them with a fresh decoder: the same names and values come back.
func checkRoundTrip(_ fields: [HPACKHeaderField]) {
    var encoder = HPACKEncoder()
    var block: [UInt8] = []
    encoder.encode(fields, into: &block)
    var fresh = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: Int.max)
    guard let decoded = try? fresh.decode(block[...]).fields else {
        preconditionFailure("the encoder wrote a block the decoder refuses")
    }
    precondition(
        decoded.map { [$0.name, $0.value] } == fields.map { [$0.name, $0.value] }, "round trip changed the fields")
}
