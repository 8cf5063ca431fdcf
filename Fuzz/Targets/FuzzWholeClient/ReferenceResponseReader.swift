// An independent reading of what a scripted server sent on one connection: responses framed by
// RFC 9112 §6.3 in their plainest form, so the oracle can say what a success must contain.
//
// It is deliberately narrow. Whatever it is not sure Wick reads the same way (obs-fold, bare LF,
// chunk extensions, comma lists in Content-Length, a transfer coding other than one `chunked`,
// 101, anything odd in a status or field line) makes the reading `unknown` from there on, and
// the oracle then asserts nothing about that response or the ones after it on the connection.

/// One final response as the reference reads it.
struct ReferenceResponse {
    /// The final status (interim 1xx responses before it are skipped, as Wick does).
    var status: Int
    /// The body as framed (chunked decoded; Content-Encoding not undone).
    var body: [UInt8]
    /// Whether the whole response arrived: its framed body ended within the bytes delivered (a
    /// close-delimited body needs the clean EOF that ends it).
    var isComplete: Bool
    /// Whether the connection must not carry another request after it (RFC 9112 §9.3:
    /// `Connection: close`, HTTP/1.0 without `keep-alive`, a close-delimited body).
    var closesConnection: Bool
    /// Whether it has a Content-Encoding field (the client may have decoded its body).
    var isEncoded: Bool
    /// Where it ends in the connection's bytes (meaningful when complete).
    var end: Int
}

/// Reads the responses on one connection, one per request, in order.
struct ReferenceResponseReader {
    /// Every byte the server delivered on the connection.
    let bytes: [UInt8]
    /// Whether the delivery ended with a clean EOF (not a reset, not cut by the client).
    let endedWithEOF: Bool

    /// The response to a request with `method`, starting at `start`; nil when the reference is
    /// not sure how Wick reads it.
    func response(to method: String, at start: Int) -> ReferenceResponse? {
        var position = start
        while true {
            guard let head = readHead(at: position) else { return nil }
            guard let head = head else {
                // The head did not arrive whole.
                return ReferenceResponse(
                    status: 0, body: [], isComplete: false, closesConnection: true, isEncoded: false, end: bytes.count)
            }
            if head.status == 101 { return nil }
            if head.status >= 100 && head.status < 200 {
                position = head.end
                continue
            }
            return frame(head, method: method)
        }
    }

    // MARK: - Heads

    private struct Head {
        var status: Int
        var isHTTP10: Bool
        var fields: [(name: String, value: String)]
        var end: Int

        func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

        /// The comma-separated tokens of every field named `name`, lowercased.
        func tokens(_ name: String) -> [String] {
            values(name).flatMap { $0.split(separator: ",") }.map { String($0).trimmed.lowercased() }
        }
    }

    /// `.some(nil)`: the head is not complete yet; nil: not a head the reference is sure of.
    private func readHead(at start: Int) -> Head?? {
        guard let end = find([13, 10, 13, 10], from: start) else {
            // Incomplete, unless what is there already breaks the plain form (then unknown).
            return bytes[start...].contains(where: { $0 == 10 || $0 == 13 }) ? nil : .some(nil)
        }
        let headBytes = Array(bytes[start..<end])
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var index = 0
        while index < headBytes.count {
            let byte = headBytes[index]
            if byte == 13 {
                guard index + 1 < headBytes.count, headBytes[index + 1] == 10 else { return nil }
                lines.append(line)
                line = []
                index += 2
                continue
            }
            if byte == 10 { return nil }
            line.append(byte)
            index += 1
        }
        lines.append(line)
        guard let statusLine = lines.first, let (status, isHTTP10) = Self.statusLine(statusLine) else { return nil }
        var fields: [(String, String)] = []
        for fieldLine in lines.dropFirst() {
            guard let field = Self.fieldLine(fieldLine) else { return nil }
            fields.append(field)
        }
        return .some(Head(status: status, isHTTP10: isHTTP10, fields: fields, end: end + 4))
    }

    /// `HTTP/1.1 200 reason`: the status and whether the version is 1.0.
    private static func statusLine(_ line: [UInt8]) -> (Int, Bool)? {
        let prefix11 = Array("HTTP/1.1 ".utf8)
        let prefix10 = Array("HTTP/1.0 ".utf8)
        let isHTTP10: Bool
        if line.starts(with: prefix11) {
            isHTTP10 = false
        } else if line.starts(with: prefix10) {
            isHTTP10 = true
        } else {
            return nil
        }
        guard line.count >= 13, line[12] == 32 else { return nil }
        let digits = line[9..<12]
        guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }), digits.first != 48 else { return nil }
        // reason-phrase = *( HTAB / SP / VCHAR / obs-text )
        guard line[13...].allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else { return nil }
        return (digits.reduce(0) { $0 * 10 + Int($1 - 48) }, isHTTP10)
    }

    /// `name: value`: the lowercased name and the value without surrounding whitespace.
    private static func fieldLine(_ line: [UInt8]) -> (String, String)? {
        guard let colon = line.firstIndex(of: 58), colon > 0 else { return nil }
        let name = line[..<colon]
        let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)
        guard
            name.allSatisfy({ byte in
                byte >= 48 && byte <= 57 || byte >= 65 && byte <= 90 || byte >= 97 && byte <= 122
                    || tokenSymbols.contains(byte)
            })
        else { return nil }
        let value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else { return nil }
        let trimmed = value.drop(while: { $0 == 32 || $0 == 9 }).reversed().drop(while: { $0 == 32 || $0 == 9 })
            .reversed()
        // Only ASCII values: a String of other bytes would not compare as the bytes do.
        guard trimmed.allSatisfy({ $0 < 128 }) else { return nil }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: trimmed, as: UTF8.self))
    }

    // MARK: - Bodies

    private func frame(_ head: Head, method: String) -> ReferenceResponse? {
        let connection = head.tokens("connection")
        var response = ReferenceResponse(
            status: head.status, body: [], isComplete: true,
            closesConnection: connection.contains("close") || head.isHTTP10 && !connection.contains("keep-alive"),
            isEncoded: !head.values("content-encoding").isEmpty, end: head.end)
        let transferCodings = head.values("transfer-encoding")
        let lengths = head.values("content-length")
        // §6.3 rule 1: HEAD, 204 and 304 end at the head, whatever their framing fields say.
        if method == "HEAD" || head.status == 204 || head.status == 304 { return response }
        if !transferCodings.isEmpty {
            guard transferCodings.count == 1, transferCodings[0].lowercased() == "chunked", lengths.isEmpty else {
                return nil
            }
            return readChunked(from: head.end, into: response)
        }
        if !lengths.isEmpty {
            guard let first = lengths.first, lengths.allSatisfy({ $0 == first }), (1...15).contains(first.utf8.count),
                first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(first)
            else { return nil }
            let available = bytes.count - head.end
            response.isComplete = available >= length
            response.body = Array(bytes[head.end..<(head.end + min(length, available))])
            response.end = head.end + min(length, available)
            return response
        }
        // Close-delimited: everything up to a clean EOF.
        response.body = Array(bytes[head.end...])
        response.isComplete = endedWithEOF
        response.closesConnection = true
        response.end = bytes.count
        return response
    }

    /// chunk = chunk-size CRLF chunk-data CRLF, last-chunk = "0" CRLF, then trailer fields and CRLF.
    /// Chunk extensions (and sizes of more than 15 hex digits) are left to Wick: unknown.
    private func readChunked(from start: Int, into head: ReferenceResponse) -> ReferenceResponse? {
        var response = head
        var position = start
        func incomplete() -> ReferenceResponse {
            response.isComplete = false
            response.end = bytes.count
            return response
        }
        while true {
            guard let lineEnd = find([13, 10], from: position) else {
                return bytes[position...].allSatisfy(Self.isHexDigit) && bytes.count - position <= 15 ? incomplete() : nil
            }
            let sizeDigits = bytes[position..<lineEnd]
            guard (1...15).contains(sizeDigits.count), sizeDigits.allSatisfy(Self.isHexDigit) else { return nil }
            let size = sizeDigits.reduce(0) { $0 * 16 + Self.hexValue($1) }
            position = lineEnd + 2
            if size == 0 { break }
            guard bytes.count - position >= size + 2 else {
                // Data cut short: the part that arrived must not be followed by a wrong byte.
                if bytes.count - position > size, bytes[position + size] != 13 { return nil }
                return incomplete()
            }
            response.body += bytes[position..<(position + size)]
            position += size
            guard bytes[position] == 13, bytes[position + 1] == 10 else { return nil }
            position += 2
        }
        // Trailer section: plain field lines until an empty line.
        while true {
            guard let lineEnd = find([13, 10], from: position) else {
                return bytes[position...].contains(where: { $0 == 10 || $0 == 13 }) ? nil : incomplete()
            }
            if lineEnd == position {
                response.end = lineEnd + 2
                return response
            }
            guard Self.fieldLine(Array(bytes[position..<lineEnd])) != nil else { return nil }
            position = lineEnd + 2
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        byte >= 48 && byte <= 57 || byte >= 65 && byte <= 70 || byte >= 97 && byte <= 102
    }

    private static func hexValue(_ byte: UInt8) -> Int {
        Int(byte >= 97 ? byte - 87 : byte >= 65 ? byte - 55 : byte - 48)
    }

    /// The first index of `needle` in `bytes` at or after `start`.
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        String(self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
