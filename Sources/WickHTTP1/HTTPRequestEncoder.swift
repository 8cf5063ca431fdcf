// Writes HTTP/1.1 request heads and chunked body framing into a caller-owned byte buffer.
//
// RFC 9112 §3: `request-line = method SP request-target SP HTTP-version CRLF`, then
// `*( field-line CRLF ) CRLF` with `field-line = field-name ":" OWS field-value OWS`.
// RFC 9112 §7.1: `chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF`,
// `last-chunk = 1*("0") [ chunk-ext ] CRLF`, then `trailer-section CRLF`.
//
// Every byte is validated before any is written, so a refused request leaves the buffer as it was:
// no header injection (CR, LF, NUL in a value), no request smuggling through a second framing field.
// Appending to a buffer with reserved capacity allocates only when the buffer must grow.
public import WickCore

/// Encodes requests for the wire. Stateless: every function appends to the buffer it is given.
public enum HTTPRequestEncoder {

    /// Appends the request line, `Host`, the caller's fields and the framing field, then the
    /// empty line, to `buffer`.
    ///
    /// `Host` comes first (RFC 9110 §7.2), taken from `head.headers` when present there (then not
    /// repeated), else from `head.host`. A `Content-Length` or `Transfer-Encoding` field in
    /// `head.headers` that agrees with `head.framing` is written once, as the framing field.
    /// - Throws: `HTTPRequestEncodingError` naming the first field at fault; `buffer` is unchanged.
    public static func encodeHead(_ head: HTTPRequestHead, into buffer: inout [UInt8]) throws(HTTPRequestEncodingError)
    {
        try encodeHead(head, vettedOriginTargetAndHost: false, into: &buffer)
    }

    /// `encodeHead(_:into:)`, with the bytes and shape of an origin-form target and of `host`
    /// taken as checked when `vettedOriginTargetAndHost` is true (`isVettedOrigin(target:host:)`
    /// said so when the destination they came from was read, and the head was not changed
    /// since): a daemon calling one URL has them checked once, not with every request.
    /// - Throws: `HTTPRequestEncodingError`, as `encodeHead(_:into:)`.
    package static func encodeHead(
        _ head: HTTPRequestHead, vettedOriginTargetAndHost: Bool, into buffer: inout [UInt8]
    ) throws(HTTPRequestEncodingError) {
        let hostIndex = try validate(head, vettedOriginTargetAndHost: vettedOriginTargetAndHost)
        let target = head.target.text

        appendUTF8(head.method.rawValue, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        appendUTF8(target, to: &buffer)
        appendUTF8(" HTTP/1.1\r\nHost: ", to: &buffer)
        appendUTF8(hostIndex.map { head.headers[$0].value } ?? head.host, to: &buffer)
        appendCRLF(to: &buffer)
        if let lines = head.headers.vettedLines {
            buffer.append(contentsOf: lines.bytes)
        } else {
            for header in head.headers {
                switch HeaderValidation.kind(of: header.name) {
                case .host, .contentLength, .transferEncoding: continue  // written above or below
                case .trailer, .other: appendField(header, to: &buffer)
                }
            }
        }
        switch head.framing {
        case .none:
            break
        case .contentLength(let length):
            appendUTF8("Content-Length: ", to: &buffer)
            appendDecimal(length, to: &buffer)
            appendCRLF(to: &buffer)
        case .chunked:
            appendUTF8("Transfer-Encoding: chunked\r\n", to: &buffer)
        }
        appendCRLF(to: &buffer)
    }

    /// Appends one chunk, `size-in-hex CRLF data CRLF`, to `buffer`. Empty data appends nothing:
    /// a zero-size chunk would end the body.
    /// Inlinable so that the copy of `data` is specialised for the caller's collection type.
    @inlinable
    public static func encodeChunk(_ data: some Collection<UInt8>, into buffer: inout [UInt8]) {
        guard !data.isEmpty else { return }
        encodeChunkHeader(length: data.count, into: &buffer)
        buffer.append(contentsOf: data)
        encodeChunkEnd(into: &buffer)
    }

    /// Appends `size-in-hex CRLF` for a chunk of `length` bytes whose data the caller writes
    /// itself (for example with `writev`), followed by `encodeChunkEnd`.
    /// - Precondition: `length > 0`.
    public static func encodeChunkHeader(length: Int, into buffer: inout [UInt8]) {
        precondition(length > 0, "a chunk of \(length) bytes: zero ends the body, use encodeLastChunk")
        appendHex(length, to: &buffer)
        appendCRLF(to: &buffer)
    }

    /// Appends the CRLF that closes a chunk's data.
    public static func encodeChunkEnd(into buffer: inout [UInt8]) {
        appendCRLF(to: &buffer)
    }

    /// Appends the last chunk `0 CRLF`, the trailer fields, and the final CRLF.
    /// - Throws: `HTTPRequestEncodingError` for an invalid or forbidden trailer; `buffer` is unchanged.
    public static func encodeLastChunk(trailers: HTTPHeaders = HTTPHeaders(), into buffer: inout [UInt8])
        throws(HTTPRequestEncodingError)
    {
        for (index, trailer) in trailers.enumerated() {
            try validateField(trailer, name: .trailerName(index: index), value: .trailerValue(index: index))
            if HeaderValidation.kind(of: trailer.name) != .other { throw .forbiddenTrailer(index: index) }
        }
        appendUTF8("0\r\n", to: &buffer)
        for trailer in trailers { appendField(trailer, to: &buffer) }
        appendCRLF(to: &buffer)
    }

    // MARK: - Validation

    /// Checks every byte and every rule of `head`.
    /// - Returns: the index of the caller's `Host` field, if any.
    private static func validate(
        _ head: HTTPRequestHead, vettedOriginTargetAndHost: Bool
    ) throws(HTTPRequestEncodingError) -> Int? {
        let method = head.method.rawValue
        if method.isEmpty { throw .empty(.method) }
        if let bad = HeaderValidation.firstInvalidByte(in: method, where: HeaderValidation.isTokenByte) {
            throw .invalidByte(bad.byte, field: .method, offset: bad.offset)
        }
        // A vetted target is an origin-form one whose bytes and shape were checked; its form
        // must still suit the method.
        let isVetted: Bool
        if vettedOriginTargetAndHost, case .origin = head.target {
            isVetted = true
            try validateTargetForm(head.target, method: head.method)
        } else {
            isVetted = false
            try validateTarget(head.target, method: head.method)
        }

        var hostIndex: Int?
        // A vetted list (`vetted(_:)`: a session's default fields) holds none of the fields
        // checked below and was checked when it was marked.
        if !head.headers.isVetted {
            for (index, header) in head.headers.enumerated() {
                try validateField(header, name: .headerName(index: index), value: .headerValue(index: index))
                switch HeaderValidation.kind(of: header.name) {
                case .host:
                    if hostIndex != nil { throw .duplicateHost(index: index) }
                    hostIndex = index
                case .contentLength:
                    guard case .contentLength(let length) = head.framing, decimalValue(of: header.value) == length
                    else {
                        throw .framingConflict(index: index, framing: head.framing)
                    }
                case .transferEncoding:
                    guard head.framing == .chunked, header.value.equalsIgnoringASCIICase("chunked") else {
                        throw .framingConflict(index: index, framing: head.framing)
                    }
                case .trailer, .other:
                    break
                }
            }
        }
        if hostIndex == nil, !isVetted,
            let bad = firstInvalidValueByte(in: head.host)
        {
            throw .invalidByte(bad.byte, field: .host, offset: bad.offset)
        }
        if case .contentLength(let length) = head.framing {
            precondition(length >= 0, "Content-Length framing of \(length) bytes")
        }
        return hostIndex
    }

    /// RFC 9112 §3.2: the target's bytes, its form's shape, and the form's fit with the method.
    private static func validateTarget(_ target: HTTPRequestTarget, method: HTTPMethod) throws(HTTPRequestEncodingError)
    {
        try validateTargetForm(target, method: method)
        if case .asterisk = target { return }
        try validateTargetBytes(target)
    }

    /// Checks that `target`'s form suits `method` (authority for CONNECT, `*` only for OPTIONS).
    private static func validateTargetForm(
        _ target: HTTPRequestTarget, method: HTTPMethod
    ) throws(HTTPRequestEncodingError) {
        let isConnect = method == .connect
        switch target {
        case .origin, .absolute:
            if isConnect { throw .targetFormMismatch(method: method) }
        case .authority:
            if !isConnect { throw .targetFormMismatch(method: method) }
        case .asterisk:
            if method != .options { throw .targetFormMismatch(method: method) }
        }
    }

    /// Checks `target`'s bytes and the shape of its form.
    private static func validateTargetBytes(_ target: HTTPRequestTarget) throws(HTTPRequestEncodingError) {
        let text = target.text
        if let bad = HeaderValidation.firstInvalidByte(in: text, where: HeaderValidation.isTargetByte) {
            throw .invalidByte(bad.byte, field: .target, offset: bad.offset)
        }
        if let offset = shapeFault(of: target, text: text.utf8) { throw .malformedTarget(offset: offset) }
    }

    /// Whether an origin-form `target` and a `host` value pass the checks `encodeHead` makes of
    /// them (bytes and shape), for a destination read once and sent many times
    /// (`HTTP1ConnectionRequest.hasVettedOriginTargetAndHost`).
    package static func isVettedOrigin(target: String, host: String) -> Bool {
        guard (try? validateTargetBytes(.origin(target))) != nil else { return false }
        return firstInvalidValueByte(in: host) == nil
    }

    /// The offset where `text` stops having its form's shape, if it does.
    private static func shapeFault(of target: HTTPRequestTarget, text: String.UTF8View) -> Int? {
        switch target {
        case .origin:
            // absolute-path = 1*( "/" segment )
            return text.first == UInt8(ascii: "/") ? nil : 0
        case .absolute:
            // absolute-URI = scheme ":" hier-part [ "?" query ];
            // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
            for (offset, byte) in text.enumerated() {
                let isAlpha = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                if isAlpha { continue }
                if offset == 0 { return 0 }
                if byte == UInt8(ascii: ":") { return nil }
                let isSchemeByte =
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                if !isSchemeByte { return offset }
            }
            return text.count
        case .authority:
            // authority-form = uri-host ":" port, the port required here; no userinfo, path, query.
            let bytes = Array(text)
            if let offset = bytes.firstIndex(where: { "/?@".utf8.contains($0) }) { return offset }
            guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon > 0, colon + 1 < bytes.count else {
                return bytes.count
            }
            return bytes[(colon + 1)...].firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        case .asterisk:
            return nil
        }
    }

    /// `headers`, marked as fit to send as they are (`HTTPHeaders.vettedLines`, their lines as
    /// `encodeHead` writes them) when every field's name is a token, every value holds no control
    /// byte but HTAB, and none is `Host`, `Content-Length` or `Transfer-Encoding` (which
    /// `encodeHead` checks against the head's own host and framing); unmarked otherwise. For a
    /// list sent with many requests, a session's default fields: `encodeHead` then copies their
    /// lines without checking or writing each field again (checking was about 1,500
    /// instructions a request for three fields, writing about 1,000). Any change to the list
    /// clears the mark.
    package static func vetted(_ headers: HTTPHeaders) -> HTTPHeaders {
        var marked = headers
        marked.vettedLines = nil
        for (index, header) in headers.enumerated() {
            do throws(HTTPRequestEncodingError) {
                try validateField(header, name: .headerName(index: index), value: .headerValue(index: index))
            } catch {
                return marked
            }
            switch HeaderValidation.kind(of: header.name) {
            case .host, .contentLength, .transferEncoding: return marked
            case .trailer, .other: continue
            }
        }
        var lines: [UInt8] = []
        for header in headers { appendField(header, to: &lines) }
        marked.vettedLines = VettedFieldLines(bytes: lines)
        return marked
    }

    /// A field's name is a token and its value holds no control byte but HTAB.
    private static func validateField(
        _ field: HTTPHeader,
        name: HTTPRequestEncodingError.Field,
        value: HTTPRequestEncodingError.Field
    ) throws(HTTPRequestEncodingError) {
        if field.name.isEmpty { throw .empty(name) }
        if let bad = HeaderValidation.firstInvalidByte(in: field.name, where: HeaderValidation.isTokenByte) {
            throw .invalidByte(bad.byte, field: name, offset: bad.offset)
        }
        if let bad = firstInvalidValueByte(in: field.value) {
            throw .invalidByte(bad.byte, field: value, offset: bad.offset)
        }
    }

    /// `HeaderValidation.firstInvalidByte(in: text, where: isFieldValueByte)`, eight bytes at a
    /// time while no byte of a word is a control byte or DEL (every request sends its session's
    /// fields, the `User-Agent` among them, through this check).
    private static func firstInvalidValueByte(in text: String) -> (offset: Int, byte: UInt8)? {
        let bytes = text.utf8.span
        // SAFETY: `raw` is the span's bytes, valid inside the closure; every load below reads
        // raw[index..<index + 8] with index + 8 <= raw.count (loadUnaligned needs no alignment).
        let start = bytes.withUnsafeBytes { raw in
            var index = 0
            while index &+ 8 <= raw.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if HeaderValidation.hasControlOrDeleteByte(word) { break }
                index &+= 8
            }
            return index
        }
        for offset in start..<bytes.count where !HeaderValidation.isFieldValueByte(bytes[offset]) {
            return (offset, bytes[offset])
        }
        return nil
    }

    /// `1*DIGIT` as a non-negative Int; nil for anything else or on overflow.
    private static func decimalValue(of text: String) -> Int? {
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    // MARK: - Writing

    private static func appendField(_ field: HTTPHeader, to buffer: inout [UInt8]) {
        appendUTF8(field.name, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        buffer.append(UInt8(ascii: " "))
        appendUTF8(field.value, to: &buffer)
        appendCRLF(to: &buffer)
    }

    /// Appends `text`'s UTF-8 bytes in one copy from its storage: `append(contentsOf: text.utf8)`
    /// went through the string's generic copy and cost about 170 instructions a call, ten calls
    /// per request head.
    @inline(__always)
    private static func appendUTF8(_ text: String, to buffer: inout [UInt8]) {
        // SAFETY: the raw bytes are the span's, valid inside the closure, and only copied out.
        text.utf8.span.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    /// Appends CR LF.
    @inline(__always)
    private static func appendCRLF(to buffer: inout [UInt8]) {
        buffer.append(0x0D)
        buffer.append(0x0A)
    }

    /// Appends `value` in decimal without allocating.
    private static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends `value` in lowercase hexadecimal without allocating.
    private static func appendHex(_ value: Int, to buffer: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        var shift = (Int.bitWidth - value.leadingZeroBitCount - 1) / 4 * 4
        while shift >= 0 {
            let nibble = (value >> shift) & 0xF
            // SAFETY: `digits` is a 16-byte literal with a static UTF-8 buffer, and nibble is value's 4
            // bits (0...15), so the unchecked subscript stays inside it.
            buffer.append(digits.withUTF8Buffer { $0[nibble] })
            shift -= 4
        }
    }
}
