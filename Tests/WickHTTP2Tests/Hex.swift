// Hex dumps as the RFCs print them ("8286 8441 ..."), for test inputs.

import WickHTTP2

/// The bytes of a hex dump; spaces and newlines are ignored.
func hex(_ dump: String) -> [UInt8] {
    let digits = dump.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd hex dump \(dump)")
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        bytes.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// The value of `body`. A throw means the test's own premise broke (a frame the test built does
/// not parse, a request the test made is refused), so it traps, naming `what`.
func must<Value, Failure: Error>(_ what: String, _ body: () throws(Failure) -> Value) -> Value {
    do {
        return try body()
    } catch {
        preconditionFailure("\(what): \(error)")
    }
}

/// Fields from name-value pairs.
func fields(_ pairs: KeyValuePairs<String, String>) -> [HPACKHeaderField] {
    pairs.map { HPACKHeaderField($0.key, $0.value) }
}
