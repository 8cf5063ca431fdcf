// The request's field section (RFC 9113 §8.2, §8.3.1), walked field by field into the encoder.

import WickCore

/// Builds a request's field section from its head, and its trailer section, as RFC 9113 §8
/// wants them, handing each field to the connection's `HPACKEncoder` as bytes (no
/// `HPACKHeaderField`, two arrays, per field), in one walk that validates as it goes: the
/// connection abandons the encoder's block when the walk throws or the list is larger than the
/// server's SETTINGS_MAX_HEADER_LIST_SIZE (the encoder counts it), so a refused request leaves
/// the HPACK state as it was.
enum HTTP2RequestFields {
    private static let methodName = Array(":method".utf8)
    private static let schemeName = Array(":scheme".utf8)
    private static let authorityName = Array(":authority".utf8)
    private static let pathName = Array(":path".utf8)

    /// The request's fields: the four pseudo-headers, then the headers lowercased, without
    /// connection-specific fields and Host (the authority says it), TE only as `trailers`,
    /// credentials never indexed (RFC 7541 §7.1.3).
    /// - Throws: `.invalidFieldName` for a name that is not a token; `.invalidFieldValue` for a
    ///   method that is not a token, a pseudo-header value with a space or control byte, an
    ///   empty path, or a header value with NUL, CR or LF. Nothing reaches `encoder` after a throw,
    ///   but fields before it may have.
    static func walk(_ head: HTTP2RequestHead, into encoder: inout HPACKEncoder) throws(HTTP2RequestError) {
        let method = head.method.rawValue.utf8
        guard !method.isEmpty, method.allSatisfy(HTTP2FieldValidation.isTokenCharacter) else {
            throw .invalidFieldValue(name: ":method")
        }
        encoder.field(name: methodName, value: method, indexing: .automatic)
        try pseudoHeader(schemeName, head.scheme, into: &encoder)
        var authority = head.authority
        if authority.isEmpty, let host = head.headers.value(for: "Host") { authority = host }
        try pseudoHeader(authorityName, authority, into: &encoder)
        guard !head.path.isEmpty else { throw .invalidFieldValue(name: ":path") }
        try pseudoHeader(pathName, head.path, into: &encoder)

        for header in head.headers {
            if let error = regularField(header, into: &encoder) { throw error }
        }
    }

    /// Hands one header to `encoder` as RFC 9113 §8.2 wants it (see `walk`), or returns why it
    /// cannot be sent. The name is lowercased into stack memory and the value read from the
    /// string's own UTF-8, so the encoder compares and encodes contiguous bytes, with no
    /// allocation (a lazily lowercased name was walked again for every comparison and count).
    private static func regularField(_ header: HTTPHeader, into encoder: inout HPACKEncoder) -> HTTP2RequestError? {
        withLowercased(header.name) { name in
            guard !name.isEmpty, name.allSatisfy(HTTP2FieldValidation.isTokenCharacter) else {
                return .invalidFieldName(header.name)
            }
            if HTTP2FieldValidation.isConnectionSpecific(name) || HTTP2FieldValidation.bytes(of: name, equal: "host") {
                return nil
            }
            var text = header.value
            // SAFETY: `withUTF8` lends the string's contiguous UTF-8 for the closure only; `value`
            // is a slice of it, and the encoder copies what it keeps.
            return text.withUTF8 { utf8 -> HTTP2RequestError? in
                let value = trimmed(utf8)
                guard !value.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
                    return .invalidFieldValue(name: header.name)
                }
                if HTTP2FieldValidation.bytes(of: name, equal: "te") && !value.elementsEqual("trailers".utf8) {
                    return nil
                }
                let sensitive =
                    HTTP2FieldValidation.bytes(of: name, equal: "authorization")
                    || HTTP2FieldValidation.bytes(of: name, equal: "proxy-authorization")
                    || (HTTP2FieldValidation.bytes(of: name, equal: "cookie") && value.count < 20)
                encoder.field(name: name, value: value, indexing: sensitive ? .neverIndexed : .automatic)
                return nil
            }
        }
    }

    /// The trailer fields: names lowercased, regular fields only, none connection-specific.
    /// - Throws: `.invalidFieldName` for a name that is not a token or is connection-specific,
    ///   `.invalidFieldValue` for a value with a control byte or edge whitespace (§8.2.1).
    static func walkTrailers(_ trailers: HTTPHeaders, into encoder: inout HPACKEncoder) throws(HTTP2RequestError) {
        for header in trailers {
            let rejected = withLowercased(header.name) { name -> HTTP2RequestError? in
                guard !name.isEmpty, name.allSatisfy(HTTP2FieldValidation.isTokenCharacter),
                    !HTTP2FieldValidation.isConnectionSpecific(name)
                else { return .invalidFieldName(header.name) }
                let value = header.value.utf8
                guard HTTP2FieldValidation.isValidValue(value) else { return .invalidFieldValue(name: header.name) }
                encoder.field(name: name, value: value, indexing: .automatic)
                return nil
            }
            if let rejected { throw rejected }
        }
    }

    /// A pseudo-header whose value may hold visible ASCII and obs-text only (no space, no
    /// control byte).
    private static func pseudoHeader(
        _ name: [UInt8], _ value: String, into encoder: inout HPACKEncoder
    ) throws(HTTP2RequestError) {
        var text = value
        // SAFETY: `withUTF8` lends the string's contiguous UTF-8 for the closure only; the encoder
        // copies what it keeps.
        let isValid = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return false }
            encoder.field(name: name, value: utf8, indexing: .automatic)
            return true
        }
        guard isValid else { throw .invalidFieldValue(name: String(decoding: name, as: UTF8.self)) }
    }

    /// Calls `body` with `name`'s UTF-8, ASCII letters lowercased (HTTP/2 sends names in
    /// lowercase), in stack memory: one pass over the name, then contiguous bytes the encoder
    /// compares and encodes without allocating (a lazily lowercased view was walked again for
    /// every count, lookup and comparison).
    private static func withLowercased<Result>(
        _ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let length = name.utf8.count
        // SAFETY: the temporary buffer holds `length` bytes, each written once below from the
        // name's contiguous UTF-8 (`withUTF8`, exactly `length` bytes) before `body` views them;
        // `body` must not keep the pointer (the encoder copies what it keeps).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { lowered in
            var original = name
            original.withUTF8 { source in
                for offset in 0..<length {
                    let byte = source[offset]
                    lowered.initializeElement(
                        at: offset, to: byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
                }
            }
            return body(UnsafeBufferPointer(lowered))
        }
    }

    /// `value`'s bytes without leading and trailing SP and HTAB.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let start = bytes.firstIndex { !isWhitespace($0) } ?? bytes.endIndex
        let end = bytes[start...].lastIndex { !isWhitespace($0) }.map { $0 + 1 } ?? start
        return bytes[start..<end]
    }
}
