// The field rules of RFC 9113 §8.2 and §8.3 for responses, and the byte tests requests share.

import WickCore

/// A rule of RFC 9113 §8 a received field section broke: a stream error PROTOCOL_ERROR.
struct MalformedMessage: Error {
    let kind: HTTP2ProtocolError.Kind

    init(_ kind: HTTP2ProtocolError.Kind) { self.kind = kind }
}

/// Checks received field sections (the request's are built by `HTTP2RequestFields`). Strict, as the HTTP/1.1 parser is by
/// default: besides §8.2.1's minimum (no uppercase, no NUL/CR/LF, no edge whitespace in values),
/// names must be RFC 9110 tokens and values may hold no other control byte than HTAB.
enum HTTP2FieldValidation {
    /// Connection-specific fields, which make an HTTP/2 message malformed (§8.2.2).
    private static let connectionSpecificNames = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ].map { Array($0.utf8) }

    /// Bit `n` is set when some connection-specific name is `n` bytes long.
    private static let connectionSpecificLengths = connectionSpecificNames.reduce(UInt64(0)) { $0 | 1 << $1.count }

    /// Whether `name` (lowercase) is a connection-specific field's. Does not allocate; a name of
    /// another length than theirs (most names) is not compared at all.
    static func isConnectionSpecific(_ name: some Collection<UInt8>) -> Bool {
        let count = name.count
        guard count < 64, connectionSpecificLengths & 1 << count != 0 else { return false }
        return connectionSpecificNames.contains { bytesEqual($0, name) }
    }

    /// Whether `bytes` are exactly `text`'s UTF-8. Does not allocate.
    static func bytes(of bytes: some Collection<UInt8>, equal text: String) -> Bool {
        bytesEqual(bytes, text.utf8)
    }

    /// Validates a response's field block (§8.3.2): exactly one `:status` of three digits, before
    /// every regular field, and no other pseudo-header.
    static func responseHead(_ fields: HPACKFieldBlock) throws(MalformedMessage) -> HTTP2ResponseHead {
        var status: Int?
        var firstRegularField: Int?
        var contentLength: UInt64?
        var fieldBytes = 0
        try fields.forEachField { (position, name, value) throws(MalformedMessage) in
            if name.first == UInt8(ascii: ":") {
                guard firstRegularField == nil else { throw MalformedMessage(.pseudoHeaderAfterRegularField) }
                guard bytes(of: name, equal: ":status") else { throw MalformedMessage(.invalidPseudoHeader) }
                guard status == nil else { throw MalformedMessage(.duplicatePseudoHeader) }
                status = try parseStatus(value)
                return
            }
            if firstRegularField == nil { firstRegularField = position }
            try validateRegularField(name: name, value: value)
            if bytes(of: name, equal: "content-length") {
                let length = try parseContentLength(value)
                guard contentLength == nil || contentLength == length else {
                    throw MalformedMessage(.invalidContentLength)
                }
                contentLength = length
            }
            fieldBytes += name.count + value.count
        }
        guard let status else { throw MalformedMessage(.missingStatus) }
        // The fields stay HPACK's bytes until someone reads them (no string per field).
        let headers =
            firstRegularField.map { HTTPHeaders(fieldsOf: HTTP2FieldList(fields, regularFrom: $0)) } ?? HTTPHeaders()
        return HTTP2ResponseHead(
            status: HTTPStatus(rawValue: status), headers: headers, contentLength: contentLength, fieldBytes: fieldBytes
        )
    }

    /// Validates a trailer field block: regular fields only (§8.1).
    static func trailers(_ fields: HPACKFieldBlock) throws(MalformedMessage) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count)
        try fields.forEachField { (_, name, value) throws(MalformedMessage) in
            guard name.first != UInt8(ascii: ":") else { throw MalformedMessage(.pseudoHeaderInTrailers) }
            try validateRegularField(name: name, value: value)
            headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
        return headers
    }

    /// A regular field's name and value (§8.2.1, §8.2.2).
    private static func validateRegularField(
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) throws(MalformedMessage) {
        guard !name.isEmpty else { throw MalformedMessage(.invalidFieldName) }
        for byte in name where !isLowercaseHTTPTokenByte(byte) {
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { throw MalformedMessage(.uppercaseFieldName) }
            throw MalformedMessage(.invalidFieldName)
        }
        guard isValidValue(value) else { throw MalformedMessage(.invalidFieldValue) }
        guard !isConnectionSpecific(name) else { throw MalformedMessage(.connectionSpecificField) }
    }

    /// `:status`: exactly three digits, 100...999 (RFC 9110 §15).
    private static func parseStatus(_ value: UnsafeBufferPointer<UInt8>) throws(MalformedMessage) -> Int {
        guard value.count == 3, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            value.first != UInt8(ascii: "0")
        else { throw MalformedMessage(.invalidStatus) }
        return value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `content-length`: 1*DIGIT, fitting in 63 bits.
    private static func parseContentLength(_ value: UnsafeBufferPointer<UInt8>) throws(MalformedMessage) -> UInt64 {
        guard !value.isEmpty && value.count <= 18 else { throw MalformedMessage(.invalidContentLength) }
        var length: UInt64 = 0
        for byte in value {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                throw MalformedMessage(.invalidContentLength)
            }
            length = length * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return length
    }

    /// No NUL, CR, LF or other control byte but HTAB; no SP or HTAB at either end (§8.2.1).
    static func isValidValue(_ value: some Collection<UInt8>) -> Bool {
        if let first = value.first, first == 0x20 || first == 0x09 { return false }
        var last: UInt8 = 0
        for byte in value {
            if byte < 0x20 && byte != 0x09 || byte == 0x7F { return false }
            last = byte
        }
        return last != 0x20 && last != 0x09
    }

    /// tchar (RFC 9110 §5.6.2); see `isHTTPTokenByte`.
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isHTTPTokenByte(byte)
    }
}
