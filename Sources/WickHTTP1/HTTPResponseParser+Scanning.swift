// The byte-level half of the response parser: line search, status and field lines, chunk lines.
//
// Unsafe code lives here, in HTTPHeadStorage.swift and in HTTPFieldBlock.swift only. Invariant for every read below:
// `bytes` is the caller's buffer, valid for the duration of `parse`, and every index read is
// checked against `bytes.count` by the surrounding loop condition; storage reads are below
// `storage.count` (bytes written by this parser in the current section).

import WickCore

/// Byte constants of the grammar.
private let cr: UInt8 = 0x0D
private let lf: UInt8 = 0x0A
private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
private let colon: UInt8 = 0x3A
private let semicolon: UInt8 = 0x3B

/// Whether `byte` is a tchar (RFC 9110 §5.6.2); see `isHTTPTokenByte`. Module-wide because
/// `ChunkExtensionGrammar` reads tokens too.
@inline(__always)
func isTokenByte(_ byte: UInt8) -> Bool {
    isHTTPTokenByte(byte)
}

/// Whether `byte` is allowed in a field value or reason phrase besides SP and HTAB
/// (VCHAR / obs-text, RFC 9110 §5.5).
@inline(__always)
private func isVisibleByte(_ byte: UInt8) -> Bool {
    byte > space && byte != 0x7F
}

/// The value of a hex digit, or nil.
@inline(__always)
private func hexValue(_ byte: UInt8) -> UInt64? {
    switch byte {
    case 0x30...0x39: UInt64(byte &- 0x30)
    case 0x41...0x46: UInt64(byte &- 0x41 &+ 10)
    case 0x61...0x66: UInt64(byte &- 0x61 &+ 10)
    default: nil
    }
}

/// The index of the first LF in `bytes[start..<end]`, eight bytes per step.
@inline(__always)
private func firstLineFeed(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
    var index = start
    while index &+ 8 <= end {
        // SAFETY: index + 8 <= end <= bytes.count, so the eight bytes are inside the buffer;
        // loadUnaligned has no alignment requirement.
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let diff = word ^ 0x0A0A_0A0A_0A0A_0A0A
        // A byte of `diff` is zero where the input has LF; the lowest flagged byte is exact.
        let flags = (diff &- 0x0101_0101_0101_0101) & ~diff & 0x8080_8080_8080_8080
        if flags != 0 { return index &+ flags.trailingZeroBitCount >> 3 }
        index &+= 8
    }
    while index < end {
        // SAFETY: index < end <= bytes.count.
        if bytes[index] == lf { return index }
        index &+= 1
    }
    return nil
}

// The two masks below flag bytes in bit 7. They skip masking off each byte's high bit first,
// so a byte of 0x80 or more may carry into the byte above it; but such a byte is flagged
// itself (by `word`'s own bit 7), and carries only run upwards. So the lowest flagged byte is
// always exact, and a word with no flag has no carry at all: callers use only "any flag" and
// "the first flag" (`trailingZeroBitCount`), never the flags above the first.

/// Bit 7 set in the bytes of `word` that are not ones most field names are made of (ASCII
/// letters and `-`; digits and the other tchars are rarer and left to the byte-by-byte check).
/// Exact for the lowest flagged byte (see above).
@inline(__always)
private func uncommonNameBytes(_ word: UInt64) -> UInt64 {
    // Setting bit 5 folds A-Z onto a-z and nothing else below 0x80 onto a-z; bit 7 of the first
    // sum is set from 0x61 up, of the second above 0x7A.
    let folded = word | 0x2020_2020_2020_2020
    let letters = (folded &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(folded &+ 0x0505_0505_0505_0505)
    // Bit 7 of each byte of the sum is clear only where the byte is `-`.
    let notDash = (word ^ 0x2D2D_2D2D_2D2D_2D2D) &+ 0x7F7F_7F7F_7F7F_7F7F
    return (word | ~letters & notDash) & 0x8080_8080_8080_8080
}

/// Bit 7 set in the bytes of `word` outside SP...`~` (a control byte, HTAB and CR included,
/// DEL, or obs-text): the field-value bytes that need a second look. Exact for the lowest
/// flagged byte (see above).
@inline(__always)
private func unusualValueBytes(_ word: UInt64) -> UInt64 {
    // Bit 7 of each byte of the first sum is clear where the byte is below 0x20; of the
    // second, set where it is 0x7F.
    let belowSpace = ~(word &+ 0x6060_6060_6060_6060)
    let delete = word &+ 0x0101_0101_0101_0101
    return (word | belowSpace | delete) & 0x8080_8080_8080_8080
}

/// Advances over the bytes most field names are made of (ASCII letters and `-`) in
/// `base[start..<end]`, eight at a time. Returns where it stopped: the caller checks the
/// remaining bytes one by one against the full tchar set.
@inline(__always)
private func skipCommonNameBytes(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
    var index = start
    while index &+ 8 <= end {
        // SAFETY: index + 8 <= end, and callers pass an `end` inside the memory at `base`.
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let uncommon = uncommonNameBytes(word)
        if uncommon != 0 { return index &+ uncommon.trailingZeroBitCount >> 3 }
        index &+= 8
    }
    return index
}

/// Advances over field-value bytes in `base[start..<end]` eight at a time while none of them is
/// a control byte (HTAB included) or DEL; `valueEnd` becomes the end of the last non-SP byte
/// seen. Returns where it stopped: the caller checks the remaining bytes one by one.
@inline(__always)
private func skipPlainValueBytes(_ base: UnsafeRawPointer, from start: Int, to end: Int, valueEnd: inout Int) -> Int {
    var index = start
    while index &+ 8 <= end {
        // SAFETY: index + 8 <= end, and callers pass an `end` inside the memory at `base`.
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        if HeaderValidation.hasControlOrDeleteByte(word) { break }
        index &+= 8
        if word >> 56 != UInt64(space) {
            valueEnd = index
        } else {
            // The block ends in SP: find the end of its last non-SP byte, if any.
            var last = index
            // SAFETY: last - 1 stays within the eight bytes just loaded.
            while last > index &- 8 && base.load(fromByteOffset: last &- 1, as: UInt8.self) == space { last &-= 1 }
            if last > index &- 8 { valueEnd = last }
        }
    }
    return index
}

extension HTTPResponseParser {
    /// One event from `bytes`; `parse` adds the bookkeeping.
    mutating func step(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPParseStep {
        var index = 0
        while true {
            switch state {
            case .statusLine, .headFields, .trailerFields:
                if lineStart == storage.count, case .statusLine = state {
                    if let next = statusLineInPlace(bytes, from: index) {
                        index = next
                        continue
                    }
                } else if lineStart == storage.count {
                    let (next, sectionEnded) = fieldLinesInPlace(bytes, from: index)
                    index = next
                    if sectionEnded {
                        if case .headFields = state {
                            // What `lineCompleted` does with the head's empty line, without the
                            // generic line checks this path has already made.
                            lineStart = storage.count
                            return HTTPParseStep(event: try headCompleted(), consumed: index)
                        }
                        if let event = try lineCompleted() { return HTTPParseStep(event: event, consumed: index) }
                        continue
                    }
                }
                guard let next = try appendLine(bytes, from: index) else {
                    return HTTPParseStep(event: .needMoreData, consumed: bytes.count)
                }
                index = next
                if let event = try lineCompleted() {
                    return HTTPParseStep(event: event, consumed: index)
                }

            case .fixedBody(let remaining):
                let available = bytes.count - index
                guard available > 0 else { return HTTPParseStep(event: .needMoreData, consumed: bytes.count) }
                let taken = remaining < UInt64(available) ? Int(remaining) : available
                let left = remaining - UInt64(taken)
                state = left == 0 ? .endPending(connectionReusable: connectionReusable) : .fixedBody(remaining: left)
                return HTTPParseStep(event: .body(index..<index + taken), consumed: index + taken)

            case .untilClose:
                guard index < bytes.count else { return HTTPParseStep(event: .needMoreData, consumed: bytes.count) }
                return HTTPParseStep(event: .body(index..<bytes.count), consumed: bytes.count)

            case .chunkSize(let line):
                guard let next = try scanChunkSizeLine(bytes, from: index, line: line) else {
                    return HTTPParseStep(event: .needMoreData, consumed: bytes.count)
                }
                index = next

            case .chunkData(let remaining):
                let available = bytes.count - index
                guard available > 0 else { return HTTPParseStep(event: .needMoreData, consumed: bytes.count) }
                let taken = remaining < UInt64(available) ? Int(remaining) : available
                let left = remaining - UInt64(taken)
                state = left == 0 ? .chunkDataCR : .chunkData(remaining: left)
                return HTTPParseStep(event: .body(index..<index + taken), consumed: index + taken)

            case .chunkDataCR:
                guard index < bytes.count else { return HTTPParseStep(event: .needMoreData, consumed: bytes.count) }
                // SAFETY: index < bytes.count.
                let byte = bytes[index]
                if byte == cr {
                    state = .chunkDataLF
                } else if byte == lf {
                    guard configuration.allowBareLF else { throw HTTPParseError(.bareLF, at: exchangeOffset + index) }
                    state = .chunkSize(ChunkSizeLine())
                } else {
                    throw HTTPParseError(.missingChunkDataCRLF, at: exchangeOffset + index)
                }
                index += 1

            case .chunkDataLF:
                guard index < bytes.count else { return HTTPParseStep(event: .needMoreData, consumed: bytes.count) }
                // SAFETY: index < bytes.count.
                guard bytes[index] == lf else {
                    throw HTTPParseError(.missingChunkDataCRLF, at: exchangeOffset + index)
                }
                state = .chunkSize(ChunkSizeLine())
                index += 1

            case .endPending(let reusable):
                state = .idle
                return HTTPParseStep(event: .end(connectionReusable: reusable), consumed: index)

            case .idle:
                preconditionFailure("parse(_:) in state idle: call expectResponse(to:) first")
            case .switchedProtocols:
                preconditionFailure("parse(_:) in state switchedProtocols: the connection left HTTP/1.1")
            case .failed:
                preconditionFailure("parse(_:) in state failed: the parser threw and was not reset")
            }
        }
    }

    // MARK: Lines of the head and the trailers

    /// The fast path for a status line that arrived whole and is plainly valid
    /// (`HTTP/1.x ddd[ reason]` CRLF): copies it into storage and parses it in one pass over
    /// `bytes`, leaving the parser exactly as `appendLine` and `lineCompleted` would. Returns nil
    /// for anything else (a partial line, a limit, any byte that needs a second look); those
    /// paths then take the line from the start and find the exact error, so at most one window
    /// of a status line is looked at twice.
    private mutating func statusLineInPlace(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let window = min(
            bytes.count - start, configuration.maxStatusLineBytes,
            configuration.maxHeadBytes - (storage.count - sectionStart))
        // The shortest whole line is `HTTP/1.1 200` CRLF.
        // SAFETY: `base` is the start of the caller's buffer, valid for bytes.count bytes until `parse`
        // returns; it is nil only for an empty buffer, which has no line to take.
        guard window >= 14, let base = bytes.baseAddress else { return nil }
        let limit = start &+ window
        // SAFETY: window >= 14, so start + 14 <= limit <= bytes.count: the eight-byte load at `start`
        // and the byte loads at start + 8...11 below read inside `bytes` (unaligned loads need no
        // alignment).
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        let minor = UInt8(truncatingIfNeeded: word >> 56) &- 0x30
        let hundreds = base.load(fromByteOffset: start &+ 9, as: UInt8.self) &- 0x30
        let tens = base.load(fromByteOffset: start &+ 10, as: UInt8.self) &- 0x30
        let ones = base.load(fromByteOffset: start &+ 11, as: UInt8.self) &- 0x30
        guard word & 0x00FF_FFFF_FFFF_FFFF == 0x002E_312F_5054_5448, minor < 10,
            base.load(fromByteOffset: start &+ 8, as: UInt8.self) == space,
            hundreds &- 1 < 9, tens < 10, ones < 10
        else { return nil }
        var index = start &+ 12
        // SAFETY: index = start + 12 < start + 14 <= limit: a byte inside `bytes`.
        let afterCode = base.load(fromByteOffset: index, as: UInt8.self)
        if afterCode == space {
            index &+= 1
        } else if afterCode != cr {
            return nil
        }
        let reasonStart = index
        while true {
            if index &+ 8 <= limit {
                // SAFETY: index + 8 <= limit <= bytes.count (this branch's condition): all eight bytes
                // are inside.
                let unusual = unusualValueBytes(
                    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                if unusual == 0 {
                    index &+= 8
                    continue
                }
                index &+= unusual.trailingZeroBitCount &>> 3
            } else if index >= limit {
                examinedByteCount += index - start
                return nil
            }
            // SAFETY: index < limit here: the branch above either stopped index at a byte inside the
            // eight it loaded or saw index < limit (it returns when index >= limit).
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == cr { break }
            guard byte == tab || (byte >= space && byte != 0x7F) else {
                examinedByteCount += index - start
                return nil
            }
            index &+= 1
        }
        // SAFETY: the load runs only once `index + 1 < limit` (the guard's first clause) holds.
        guard index &+ 1 < limit, base.load(fromByteOffset: index &+ 1, as: UInt8.self) == lf else {
            examinedByteCount += index - start
            return nil
        }
        let end = index &+ 2
        // As appendLine (the whole line) and lineCompleted (its content) would count it.
        examinedByteCount += (end &- start) &+ (index &- start)
        reserve(bytes: end &- start, fields: 0)
        let shift = storage.count &- start
        // SAFETY: start..<end is inside bytes (end <= limit <= bytes.count).
        storage.append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        version = HTTPVersion(major: 1, minor: minor)
        status = HTTPStatus(rawValue: Int(hundreds) &* 100 &+ Int(tens) &* 10 &+ Int(ones))
        reasonRange = reasonStart &+ shift..<index &+ shift
        lineStart = storage.count
        state = .headFields
        return end
    }

    /// The fast path for field lines: parses complete, strictly valid field lines directly in
    /// `bytes` (one pass: name, colon, value, CRLF) and records their fields, then copies the
    /// lines into storage in one block. Stops before the first line it cannot take whole: a line
    /// that is partial, over a limit, folded, over the field count, or invalid in any way.
    /// `appendLine` and `lineCompleted` then handle that line exactly as if this path did not
    /// exist, so errors and their offsets do not depend on it. When that line is the empty line
    /// (CRLF) that ends the section, it is copied too and `sectionEnded` is true: the caller
    /// then ends the section as `lineCompleted` would. Each call looks at a line's bytes at most
    /// once before handing it over, which keeps split input O(bytes).
    private mutating func fieldLinesInPlace(
        _ bytes: UnsafeRawBufferPointer,
        from start: Int
    ) -> (next: Int, sectionEnded: Bool) {
        // SAFETY: the caller's buffer is valid for this call; an empty one has no lines.
        guard let base = bytes.baseAddress else { return (start, false) }
        let isHead = if case .headFields = state { true } else { false }
        let lineLimit = configuration.maxFieldLineBytes
        let sectionLimit = isHead ? configuration.maxHeadBytes : configuration.maxTrailerBytes
        // No line may end beyond `hardLimit`: the end of `bytes` or of the section's allowance.
        let hardLimit = start &+ min(bytes.count &- start, sectionLimit - (storage.count - sectionStart))
        var fieldsLeft = configuration.maxFieldCount - (storage.fieldCount - sectionFieldStart)
        // Lines before `lineStartIndex` have their fields recorded but are not yet in storage:
        // storage index = input index + shift, so they start at input index storage.count - shift.
        // A line may end at `byteStop` at most before storage must grow. The storage's field
        // count is kept in a local (written back before anything else reads it).
        var lineStartIndex = start
        var index = start
        // SAFETY: `storage.fields` is allocated with a positive capacity (HTTPHeadStorage.init), so its
        // base address is non-nil; it stays valid while `storage` holds this object, and is re-read
        // below whenever `reserve` replaces it.
        var fieldsBase = storage.fields.baseAddress.unsafelyUnwrapped
        var shift = storage.count &- start
        var byteStop = storage.byteCapacity &- shift
        var fieldCount = storage.fieldCount
        var fieldCapacity = storage.fieldCapacity
        // SAFETY: every load below reads an index checked just before it against `limit` (eight-byte
        // loads: index + 8 <= limit), and limit <= hardLimit <= bytes.count.
        lines: while fieldsLeft > 0 {
            let limit = lineLimit < hardLimit &- lineStartIndex ? lineStartIndex &+ lineLimit : hardLimit
            // field-name = token, then ":" (RFC 9112 §5.1: no whitespace before the colon).
            index = skipCommonNameBytes(base, from: index, to: limit)
            while true {
                guard index < limit else { break lines }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == colon { break }
                guard isTokenByte(byte) else { break lines }
                index &+= 1
            }
            guard index > lineStartIndex else { break lines }
            let nameEnd = index
            index &+= 1
            // OWS, then the value up to CR; bytes outside SP...~ get a second look.
            while index < limit {
                // SAFETY: the loop condition keeps index < limit <= bytes.count.
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                guard byte == space || byte == tab else { break }
                index &+= 1
            }
            let valueStart = index
            while true {
                if index &+ 8 <= limit {
                    // SAFETY: index + 8 <= limit <= bytes.count (the branch's condition).
                    let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let unusual = unusualValueBytes(word)
                    if unusual == 0 {
                        index &+= 8
                        continue
                    }
                    index &+= unusual.trailingZeroBitCount &>> 3
                } else if index >= limit {
                    break lines
                }
                // SAFETY: index < limit here: the word branch stopped index inside the eight bytes it
                // loaded, or the other branch found index < limit (it leaves the loop when index >=
                // limit).
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == cr { break }
                guard byte == tab || (byte >= space && byte != 0x7F) else { break lines }
                index &+= 1
            }
            // SAFETY: the load runs only once `index + 1 < limit` (the guard's first clause) holds.
            guard index &+ 1 < limit, base.load(fromByteOffset: index &+ 1, as: UInt8.self) == lf else { break lines }
            var valueEnd = index
            while valueEnd > valueStart {
                // SAFETY: valueStart < valueEnd <= index < limit, so valueEnd - 1 is inside `bytes`.
                let byte = base.load(fromByteOffset: valueEnd &- 1, as: UInt8.self)
                guard byte == space || byte == tab else { break }
                valueEnd &-= 1
            }
            let lineEnd = index &+ 2
            if lineEnd > byteStop || fieldCount == fieldCapacity {
                storage.fieldCount = fieldCount
                copyLines(bytes, from: storage.count &- shift, to: lineStartIndex)
                reserve(bytes: lineEnd &- lineStartIndex, fields: 1)
                // SAFETY: `reserve` may have replaced `storage`; its new field buffer has a positive
                // capacity (non-nil base) and the stale `fieldsBase` into the old one is dropped here,
                // before any write.
                fieldsBase = storage.fields.baseAddress.unsafelyUnwrapped
                shift = storage.count &- lineStartIndex
                byteStop = storage.byteCapacity &- shift
                fieldCount = storage.fieldCount
                fieldCapacity = storage.fieldCapacity
            }
            // SAFETY: fieldCount < fieldCapacity (checked above, or made so by `reserve`); the
            // slot is past every published field.
            (fieldsBase + fieldCount).initialize(
                to: HTTPFieldRange(
                    nameStart: lineStartIndex &+ shift,
                    nameEnd: nameEnd &+ shift,
                    valueStart: valueStart &+ shift,
                    valueEnd: valueEnd &+ shift
                )
            )
            fieldCount &+= 1
            fieldsLeft &-= 1
            lineStartIndex = lineEnd
            index = lineEnd
        }
        // Every complete line, and the part of the next one looked at.
        examinedByteCount += index &- start
        storage.fieldCount = fieldCount
        // SAFETY: lineStartIndex + 1 < hardLimit <= bytes.count is checked before both loads.
        guard index == lineStartIndex, lineLimit >= 2, lineStartIndex &+ 1 < hardLimit,
            base.load(fromByteOffset: lineStartIndex, as: UInt8.self) == cr,
            base.load(fromByteOffset: lineStartIndex &+ 1, as: UInt8.self) == lf
        else {
            copyLines(bytes, from: storage.count &- shift, to: lineStartIndex)
            return (lineStartIndex, false)
        }
        let lineEnd = lineStartIndex &+ 2
        if lineEnd > byteStop {
            copyLines(bytes, from: storage.count &- shift, to: lineStartIndex)
            reserve(bytes: 2, fields: 0)
            shift = storage.count &- lineStartIndex
        }
        copyLines(bytes, from: storage.count &- shift, to: lineEnd)
        lineStart = storage.count &- 2
        examinedByteCount += 2
        return (lineEnd, true)
    }

    /// Copies the complete lines `bytes[start..<end]`, whose fields are recorded, into storage
    /// (which has room for them) and moves `lineStart` after them.
    @inline(__always)
    private mutating func copyLines(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        if end > start {
            // SAFETY: start..<end is inside bytes (callers pass indices of scanned lines).
            storage.append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        }
        lineStart = storage.count
    }

    /// Copies the current line's bytes from `bytes[start...]` into storage. Returns the index
    /// after its LF when the line is complete, nil when all of `bytes` was taken and the line
    /// goes on. Each byte is searched once: a partial line is never searched again.
    ///
    /// - Throws: the line or section limit error, at the first byte past the limit, as soon as
    ///   the limit is reached without an LF (whether or not that byte has arrived).
    private mutating func appendLine(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(HTTPParseError) -> Int? {
        let lineLimit: Int
        let lineError: HTTPParseError.Kind
        let sectionLimit: Int
        let sectionError: HTTPParseError.Kind
        switch state {
        case .statusLine:
            (lineLimit, lineError) = (configuration.maxStatusLineBytes, .statusLineTooLong)
            (sectionLimit, sectionError) = (configuration.maxHeadBytes, .headTooLarge)
        case .headFields:
            (lineLimit, lineError) = (configuration.maxFieldLineBytes, .fieldLineTooLong)
            (sectionLimit, sectionError) = (configuration.maxHeadBytes, .headTooLarge)
        default:
            (lineLimit, lineError) = (configuration.maxFieldLineBytes, .fieldLineTooLong)
            (sectionLimit, sectionError) = (configuration.maxTrailerBytes, .trailersTooLarge)
        }
        let lineAllowance = lineLimit - (storage.count - lineStart)
        let sectionAllowance = sectionLimit - (storage.count - sectionStart)
        let window = min(bytes.count - start, lineAllowance, sectionAllowance)
        if let lineFeed = firstLineFeed(in: bytes, from: start, to: start + window) {
            let end = lineFeed + 1
            examinedByteCount += end - start
            reserve(bytes: end - start, fields: 0)
            // SAFETY: start..<end is inside bytes (end <= start + window <= bytes.count).
            storage.append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            return end
        }
        examinedByteCount += window
        reserve(bytes: window, fields: 0)
        // SAFETY: start..<start + window is inside bytes (window <= bytes.count - start).
        storage.append(UnsafeRawBufferPointer(rebasing: bytes[start..<start + window]))
        if window == sectionAllowance {
            throw HTTPParseError(sectionError, at: offset(ofStorageIndex: storage.count))
        }
        if window == lineAllowance {
            throw HTTPParseError(lineError, at: offset(ofStorageIndex: storage.count))
        }
        return nil
    }

    /// Handles the complete line at `lineStart..<storage.count` (LF included); returns the event
    /// it completes, if any.
    private mutating func lineCompleted() throws(HTTPParseError) -> HTTPParseEvent? {
        let lineFeed = storage.count - 1
        // SAFETY: lineStart <= lineFeed < storage.count; these are bytes of the current line.
        let hasCR = lineFeed > lineStart && storage.bytes[lineFeed - 1] == cr
        if !hasCR && !configuration.allowBareLF {
            throw HTTPParseError(.bareLF, at: offset(ofStorageIndex: lineFeed))
        }
        let contentEnd = hasCR ? lineFeed - 1 : lineFeed
        examinedByteCount += contentEnd - lineStart
        defer { lineStart = storage.count }

        switch state {
        case .statusLine:
            try parseStatusLine(end: contentEnd)
            state = .headFields
            return nil
        case .headFields:
            if contentEnd == lineStart { return try headCompleted() }
            try parseFieldLine(end: contentEnd)
            return nil
        case .trailerFields:
            if contentEnd == lineStart {
                state = .endPending(connectionReusable: connectionReusable)
                let trailers = sectionFields
                return trailers.isEmpty ? nil : .trailers(trailers)
            }
            try parseFieldLine(end: contentEnd)
            return nil
        default:
            preconditionFailure("line completed in state \(state), which reads no lines")
        }
    }

    /// status-line = HTTP-version SP status-code SP [ reason-phrase ]   (RFC 9112 §4)
    /// HTTP-version = "HTTP/" DIGIT "." DIGIT                             (RFC 9112 §2.3)
    ///
    /// Accepted beyond the ABNF: a status code directly followed by CRLF (`HTTP/1.1 200\r\n`).
    /// It frames exactly like an empty reason phrase, common servers send it, and no parser
    /// on the path can read it differently, so rejecting it would only cost interoperability.
    private mutating func parseStatusLine(end: Int) throws(HTTPParseError) {
        let start = lineStart
        // SAFETY: the line's bytes lineStart..<end are written storage; every read below checks
        // its index against `end` first.
        let line = UnsafeRawBufferPointer(storage.bytes)
        func byte(_ index: Int) -> UInt8? { index < end ? line[index] : nil }

        // SAFETY: as above; the eight-byte load is taken only when start + 9 <= end.
        let base = UnsafeRawPointer(line.baseAddress.unsafelyUnwrapped)
        let minor: UInt8
        if end - start >= 9,
            case let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
            word & 0x00FF_FFFF_FFFF_FFFF == 0x002E_312F_5054_5448, UInt8(truncatingIfNeeded: word >> 56) &- 0x30 < 10,
            line[start + 8] == space
        {
            // The common case, `HTTP/1.x `, in one compare.
            minor = UInt8(truncatingIfNeeded: word >> 56)
        } else {
            // Anything else, byte by byte, to find the exact error.
            let prefix: StaticString = "HTTP/"
            for position in 0..<5 {
                // SAFETY: position < 5 == prefix.utf8CodeUnitCount; a StaticString lives forever.
                guard byte(start + position) == prefix.utf8Start[position] else {
                    throw HTTPParseError(.invalidVersion, at: offset(ofStorageIndex: start + position))
                }
            }
            guard let major = byte(start + 5), major &- 0x30 < 10 else {
                throw HTTPParseError(.invalidVersion, at: offset(ofStorageIndex: start + 5))
            }
            guard byte(start + 6) == 0x2E else {
                throw HTTPParseError(.invalidVersion, at: offset(ofStorageIndex: start + 6))
            }
            guard let minorDigit = byte(start + 7), minorDigit &- 0x30 < 10 else {
                throw HTTPParseError(.invalidVersion, at: offset(ofStorageIndex: start + 7))
            }
            guard byte(start + 8) == space else {
                throw HTTPParseError(.invalidVersion, at: offset(ofStorageIndex: start + 8))
            }
            guard major == 0x31 else {
                throw HTTPParseError(.unsupportedVersion, at: offset(ofStorageIndex: start + 5))
            }
            minor = minorDigit
        }
        var code = 0
        for position in 9...11 {
            guard let digit = byte(start + position), digit &- 0x30 < 10, position > 9 || digit != 0x30 else {
                throw HTTPParseError(.invalidStatusCode, at: offset(ofStorageIndex: start + position))
            }
            code = code * 10 + Int(digit &- 0x30)
        }
        var reasonStart = start + 12
        if reasonStart < end {
            // SAFETY: reasonStart < end <= storage.count.
            guard line[reasonStart] == space else {
                throw HTTPParseError(.invalidStatusCode, at: offset(ofStorageIndex: reasonStart))
            }
            reasonStart += 1
        }
        if !configuration.allowInvalidFieldBytes {
            var index = reasonStart
            while index < end {
                if index &+ 8 <= end {
                    // SAFETY: index + 8 <= end <= storage.count.
                    let unusual = unusualValueBytes(
                        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                    if unusual == 0 {
                        index &+= 8
                        continue
                    }
                    index &+= unusual.trailingZeroBitCount &>> 3
                }
                // SAFETY: index < end <= storage.count.
                let byte = line[index]
                if !isVisibleByte(byte) && byte != space && byte != tab {
                    throw HTTPParseError(.invalidReasonPhrase, at: offset(ofStorageIndex: index))
                }
                index += 1
            }
        }
        version = HTTPVersion(major: 1, minor: minor &- 0x30)
        status = HTTPStatus(rawValue: code)
        reasonRange = reasonStart..<end
    }

    /// field-line = field-name ":" OWS field-value OWS   (RFC 9112 §5; obs-fold §5.2)
    private mutating func parseFieldLine(end: Int) throws(HTTPParseError) {
        let start = lineStart
        let lenient = configuration.allowInvalidFieldBytes
        // SAFETY: the line's bytes lineStart..<end are written storage and this parser's alone
        // until the section is published; every index below is checked against `end`.
        let line = storage.bytes

        let first = line[start]
        if first == space || first == tab {
            try unfoldLine(end: end)
            return
        }
        if storage.fieldCount - sectionFieldStart == configuration.maxFieldCount {
            throw HTTPParseError(.tooManyFields, at: offset(ofStorageIndex: start))
        }

        var index = start
        // SAFETY: index < end <= storage.count; base is the storage's non-nil address.
        let base = UnsafeRawPointer(line.baseAddress.unsafelyUnwrapped)
        index = skipCommonNameBytes(base, from: index, to: end)
        while index < end && isTokenByte(base.load(fromByteOffset: index, as: UInt8.self)) { index &+= 1 }
        while true {
            guard index < end else { throw HTTPParseError(.missingColon, at: offset(ofStorageIndex: end)) }
            let byte = line[index]
            if byte == colon { break }
            if byte == space || byte == tab {
                throw HTTPParseError(.whitespaceBeforeColon, at: offset(ofStorageIndex: index))
            }
            guard lenient else { throw HTTPParseError(.invalidFieldName, at: offset(ofStorageIndex: index)) }
            index += 1
        }
        if index == start { throw HTTPParseError(.invalidFieldName, at: offset(ofStorageIndex: start)) }
        let nameEnd = index
        index += 1
        // SAFETY: index < end <= storage.count is checked before each read.
        while index < end && (line[index] == space || line[index] == tab) { index += 1 }
        let valueStart = index
        let valueEnd = try scanFieldValue(from: valueStart, to: end)
        reserve(bytes: 0, fields: 1)
        // reserve may have rebased the section; shift the indices found above with it.
        let shift = start - lineStart
        storage.appendField(
            HTTPFieldRange(
                nameStart: start - shift,
                nameEnd: nameEnd - shift,
                valueStart: valueStart - shift,
                valueEnd: valueEnd - shift
            )
        )
    }

    /// Validates field-value bytes in `start..<end` and returns the end of the value without
    /// trailing whitespace.
    private func scanFieldValue(from start: Int, to end: Int) throws(HTTPParseError) -> Int {
        // SAFETY: start..<end are written bytes of the current line; the base address is
        // non-nil because storage capacity is positive.
        let base = UnsafeRawPointer(storage.bytes.baseAddress.unsafelyUnwrapped)
        var valueEnd = start
        var index = skipPlainValueBytes(base, from: start, to: end, valueEnd: &valueEnd)
        let lenient = configuration.allowInvalidFieldBytes
        while index < end {
            // SAFETY: index < end <= storage.count.
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            index &+= 1
            if isVisibleByte(byte) {
                valueEnd = index
            } else if byte != space && byte != tab {
                guard lenient else { throw HTTPParseError(.invalidFieldValue, at: offset(ofStorageIndex: index - 1)) }
                valueEnd = index
            }
        }
        return valueEnd
    }

    /// obs-fold = OWS CRLF RWS (RFC 9112 §5.2): the line continues the previous field's value.
    ///
    /// "A user agent that receives an obs-fold in a response message ... MUST replace each
    /// received obs-fold with one or more SP octets prior to interpreting the field value." So
    /// the fold (previous trailing whitespace, line ending, leading whitespace) becomes spaces
    /// in storage, one per byte, and the previous value is extended over this line; unless
    /// `rejectObsoleteLineFolding` asks for an error. A section's first line has no field to
    /// continue (§2.2 for the head: no whitespace between the start-line and the first field).
    private mutating func unfoldLine(end: Int) throws(HTTPParseError) {
        guard storage.fieldCount > sectionFieldStart else {
            throw HTTPParseError(.whitespaceBeforeFirstField, at: offset(ofStorageIndex: lineStart))
        }
        if configuration.rejectObsoleteLineFolding {
            throw HTTPParseError(.obsoleteLineFolding, at: offset(ofStorageIndex: lineStart))
        }
        // SAFETY: lineStart..<end are written bytes of the current line.
        let line = storage.bytes
        var continuationStart = lineStart
        while continuationStart < end && (line[continuationStart] == space || line[continuationStart] == tab) {
            continuationStart += 1
        }
        let valueEnd = try scanFieldValue(from: continuationStart, to: end)
        guard valueEnd > continuationStart else { return }
        let last = storage.fieldCount - 1
        var field = storage.fields[last]
        if field.valueStart == field.valueEnd {
            field.valueStart = continuationStart
        } else {
            // The fold (OWS CRLF RWS) lies in this section's written bytes, not yet published,
            // so the parser may rewrite it.
            var index = field.valueEnd
            while index < continuationStart {
                // SAFETY: field.valueEnd <= index < continuationStart <= end <= storage.count.
                line[index] = space
                index += 1
            }
        }
        field.valueEnd = valueEnd
        storage.fields[last] = field
    }

    // MARK: Chunk-size lines

    /// chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF   (RFC 9112 §7.1)
    /// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )   (§7.1.1)
    ///
    /// Extensions are parsed by their grammar (`ChunkExtensionGrammar`), bounded by
    /// `maxChunkExtensionBytes`, and then ignored ("A recipient MUST ignore unrecognized chunk
    /// extensions"; Wick recognises none). Returns the index after the line's LF, or nil when all
    /// of `bytes` was taken.
    private mutating func scanChunkSizeLine(
        _ bytes: UnsafeRawBufferPointer,
        from start: Int,
        line: ChunkSizeLine
    ) throws(HTTPParseError) -> Int? {
        var line = line
        var index = start
        defer { examinedByteCount += index - start }
        while index < bytes.count {
            // SAFETY: index < bytes.count.
            let byte = bytes[index]
            switch line.phase {
            case .digits:
                if let digit = hexValue(byte) {
                    if line.digits == configuration.maxChunkSizeDigits {
                        throw HTTPParseError(.chunkSizeTooLong, at: exchangeOffset + index)
                    }
                    if line.value > UInt64.max >> 4 {
                        throw HTTPParseError(.chunkSizeOverflow, at: exchangeOffset + index)
                    }
                    line.value = line.value << 4 | digit
                    line.digits += 1
                } else if line.digits == 0 {
                    throw HTTPParseError(.invalidChunkSize, at: exchangeOffset + index)
                } else if byte == cr {
                    line.phase = .lineFeed
                } else if byte == lf {
                    return try chunkSizeLineEnded(line, lineFeedAt: index, bare: true)
                } else if byte == semicolon || byte == space || byte == tab {
                    line.phase = .extensions(ChunkExtensionGrammar())
                    continue
                } else {
                    throw HTTPParseError(.invalidChunkSize, at: exchangeOffset + index)
                }
            case .extensions(var grammar):
                if byte == cr || byte == lf {
                    guard grammar.canEnd else {
                        throw HTTPParseError(.invalidChunkExtension, at: exchangeOffset + index)
                    }
                    if byte == lf { return try chunkSizeLineEnded(line, lineFeedAt: index, bare: true) }
                    line.phase = .lineFeed
                } else {
                    guard grammar.accept(byte) else {
                        throw HTTPParseError(.invalidChunkExtension, at: exchangeOffset + index)
                    }
                    if line.extensionBytes == configuration.maxChunkExtensionBytes {
                        throw HTTPParseError(.chunkExtensionTooLong, at: exchangeOffset + index)
                    }
                    line.extensionBytes += 1
                    line.phase = .extensions(grammar)
                }
            case .lineFeed:
                guard byte == lf else { throw HTTPParseError(.invalidLineEnding, at: exchangeOffset + index) }
                return try chunkSizeLineEnded(line, lineFeedAt: index, bare: false)
            }
            index += 1
        }
        state = .chunkSize(line)
        return nil
    }

    /// Moves on after a chunk-size line whose LF is at `lineFeed` (`bare`: without CR): to the
    /// chunk's data, or to the trailers after the last chunk.
    private mutating func chunkSizeLineEnded(
        _ line: ChunkSizeLine,
        lineFeedAt lineFeed: Int,
        bare: Bool
    ) throws(HTTPParseError) -> Int {
        if bare && !configuration.allowBareLF {
            throw HTTPParseError(.bareLF, at: exchangeOffset + lineFeed)
        }
        let next = lineFeed + 1
        if line.value == 0 {
            beginSection(atOffset: exchangeOffset + next)
            state = .trailerFields
        } else {
            state = .chunkData(remaining: line.value)
        }
        return next
    }
}
