// What follows a complete head: interim, protocol switch, or a body framed per RFC 9112 §6.3.
//
// §6.3, applied in its order to a final response:
//   1. A response to HEAD, and any 1xx, 204 or 304 response, ends at its head.
//   2. A 2xx response to CONNECT switches the connection to a tunnel (like 101, we stop).
//   3. Transfer-Encoding and Content-Length together: an error (smuggling shape; §6.1 says the
//      message "ought to be handled as an error"), as is Transfer-Encoding in HTTP/1.0 (§6.1).
//   4. Transfer-Encoding whose codings are exactly `chunked`: chunked. Any other coding is an
//      error: we never send TE, so a server has no business applying one (and §6.3's
//      close-delimited fallback for a non-chunked final coding is a desync risk we refuse).
//   5. Content-Length: that many bytes. Differing values are an error; identical repeats
//      (`5, 5`, or two lines of `5`) are accepted (§6.3 rule 5 / RFC 9110 §8.6).
//   6. (requests only)
//   7. Otherwise: until the server closes the connection.
// Reuse (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with
// `Connection: keep-alive`; never after a close-delimited body.

import WickCore

extension HTTPResponseParser {
    /// The head's empty line arrived: decide what the response is and how its body is framed.
    mutating func headCompleted() throws(HTTPParseError) -> HTTPParseEvent {
        if status.rawValue == 101 {
            state = .switchedProtocols
            return .switchingProtocols(head(.none))
        }
        if status.kind == .informational {
            // Made before the next section begins: that may reuse the storage.
            let interim = head(.none)
            beginSection(atOffset: offset(ofStorageIndex: storage.count))
            state = .statusLine
            return .informationalHead(interim)
        }

        let facts = try framingFields()
        let persistent = version.minor >= 1 ? !facts.close : facts.keepAlive && !facts.close

        // Rule 1.
        if requestIsHead || status.forbidsBody {
            connectionReusable = persistent
            state = .endPending(connectionReusable: persistent)
            return .head(head(.none))
        }
        // Rule 2.
        if requestIsConnect && status.kind == .successful {
            state = .switchedProtocols
            return .switchingProtocols(head(.none))
        }
        // Rule 3.
        if let transferEncoding = facts.transferEncodingLine {
            if let contentLength = facts.contentLengthLine {
                let later = max(transferEncoding, contentLength)
                throw HTTPParseError(.transferEncodingWithContentLength, at: offset(ofStorageIndex: later))
            }
            if version.minor == 0 {
                throw HTTPParseError(.transferEncodingInHTTP10, at: offset(ofStorageIndex: transferEncoding))
            }
            // Rule 4. Lines that list no coding at all (`Transfer-Encoding:`, or only commas) do
            // not say chunked, and a parser that reads such a body until close frames it otherwise.
            guard facts.chunked else {
                throw HTTPParseError(.unsupportedTransferCoding, at: offset(ofStorageIndex: facts.transferCodingsStart))
            }
            connectionReusable = persistent
            state = .chunkSize(ChunkSizeLine())
            return .head(head(.chunked))
        }
        // Rule 5.
        if let length = facts.contentLength {
            connectionReusable = persistent
            state = length == 0 ? .endPending(connectionReusable: persistent) : .fixedBody(remaining: length)
            return .head(head(.contentLength(length)))
        }
        // Rule 7.
        connectionReusable = false
        state = .untilClose
        return .head(head(.untilClose))
    }

    /// The head just read, with `framing`: built once per event, so the storage is retained once.
    private func head(_ framing: HTTPBodyFraming) -> HTTPResponseHead {
        HTTPResponseHead(
            version: version, status: status, reasonRange: reasonRange, fields: sectionFields, framing: framing)
    }

    /// What the framing fields of the head say.
    struct FramingFacts {
        /// Storage index of the first Transfer-Encoding line, if any.
        var transferEncodingLine: Int?
        /// Storage index of that line's value (meaningful when `transferEncodingLine` is set).
        var transferCodingsStart = 0
        /// A Transfer-Encoding line listed `chunked` (any other coding throws while reading).
        var chunked = false
        /// Storage index of the first Content-Length line, if any.
        var contentLengthLine: Int?
        /// The agreed Content-Length.
        var contentLength: UInt64?
        /// `Connection: close` was present.
        var close = false
        /// `Connection: keep-alive` was present.
        var keepAlive = false
    }

    /// Reads Transfer-Encoding, Content-Length and Connection in the head's fields.
    ///
    /// - Throws: a malformed or conflicting Content-Length, or a transfer coding other than one
    ///   `chunked`, at the offending list element.
    private func framingFields() throws(HTTPParseError) -> FramingFacts {
        var facts = FramingFacts()
        var chunkedSeen = false
        var position = sectionFieldStart
        while let (found, field, name) = storage.firstFramingField(in: position..<storage.fieldCount) {
            position = found + 1
            let value = field.valueStart..<field.valueEnd
            switch name {
            case .connection:
                // The usual values are one option alone, which the list walk would find too.
                if storage.equalsLowercase(value, "keep-alive") {
                    facts.keepAlive = true
                } else if storage.equalsLowercase(value, "close") {
                    facts.close = true
                } else {
                    connectionOptions(field, &facts)
                }
            case .contentLength:
                facts.contentLengthLine = facts.contentLengthLine ?? field.nameStart
                // The usual value is one number that agrees with any before it; anything else
                // (lists, bad digits, overflow, conflicts) takes the list walk, which finds the error.
                let length = storage.decimalValue(value)
                if let length, facts.contentLength == nil || facts.contentLength == length {
                    facts.contentLength = length
                } else {
                    try contentLengths(field, &facts)
                }
            case .transferEncoding:
                if facts.transferEncodingLine == nil {
                    facts.transferEncodingLine = field.nameStart
                    facts.transferCodingsStart = field.valueStart
                }
                try transferCodings(field, chunkedSeen: &chunkedSeen)
                facts.chunked = chunkedSeen
            }
        }
        return facts
    }

    /// Connection = #connection-option (RFC 9110 §7.6.1): notes `close` and `keep-alive`.
    @inline(never)
    private func connectionOptions(_ field: HTTPFieldRange, _ facts: inout FramingFacts) {
        forEachListElement(field) { element in
            if storage.equalsLowercase(element, "close") { facts.close = true }
            if storage.equalsLowercase(element, "keep-alive") { facts.keepAlive = true }
        }
    }

    /// Every element of a Content-Length list must be the same number (RFC 9110 §8.6).
    ///
    /// - Throws: at the first element that is not a number, overflows, or differs.
    @inline(never)
    private func contentLengths(_ field: HTTPFieldRange, _ facts: inout FramingFacts) throws(HTTPParseError) {
        var failure: HTTPParseError?
        forEachListElement(field, includingEmpty: true) { element in
            guard failure == nil else { return }
            do throws(HTTPParseError) {
                let length = try contentLength(element)
                if let agreed = facts.contentLength, agreed != length {
                    throw HTTPParseError(.conflictingContentLengths, at: offset(ofStorageIndex: element.lowerBound))
                }
                facts.contentLength = length
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The transfer codings must be one `chunked` in the whole head (rule 4 above).
    ///
    /// - Throws: at the first element that is not `chunked`, or any element after one.
    @inline(never)
    private func transferCodings(_ field: HTTPFieldRange, chunkedSeen: inout Bool) throws(HTTPParseError) {
        var failure: HTTPParseError?
        forEachListElement(field) { element in
            guard failure == nil else { return }
            if chunkedSeen || !storage.equalsLowercase(element, "chunked") {
                failure = HTTPParseError(.unsupportedTransferCoding, at: offset(ofStorageIndex: element.lowerBound))
            }
            chunkedSeen = true
        }
        if let failure { throw failure }
    }

    /// Content-Length = 1*DIGIT (RFC 9110 §8.6), as a 64-bit count.
    private func contentLength(_ element: Range<Int>) throws(HTTPParseError) -> UInt64 {
        guard !element.isEmpty else {
            throw HTTPParseError(.invalidContentLength, at: offset(ofStorageIndex: element.lowerBound))
        }
        var value: UInt64 = 0
        for index in element {
            let digit = storage.byte(at: index) &- 0x30
            guard digit < 10 else { throw HTTPParseError(.invalidContentLength, at: offset(ofStorageIndex: index)) }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(digit))
            if overflowA || overflowB {
                throw HTTPParseError(.contentLengthOverflow, at: offset(ofStorageIndex: index))
            }
            value = sum
        }
        return value
    }

    /// Calls `body` with each element of the field's comma-separated value (RFC 9110 §5.6.1),
    /// without surrounding OWS. Empty elements are skipped unless `includingEmpty`.
    private func forEachListElement(
        _ field: HTTPFieldRange,
        includingEmpty: Bool = false,
        _ body: (Range<Int>) -> Void
    ) {
        var elementStart = field.valueStart
        while true {
            let comma = storage.firstIndex(of: 0x2C, in: elementStart..<field.valueEnd)
            let element = storage.trimmingWhitespace(elementStart..<(comma ?? field.valueEnd))
            if includingEmpty || !element.isEmpty { body(element) }
            guard let comma else { return }
            elementStart = comma + 1
        }
    }
}
