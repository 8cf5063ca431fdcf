// Request encoder: golden bytes for every target form and framing, and chunk framing.
import Testing
import WickCore

@testable import WickHTTP1

@Suite struct HTTPRequestEncoderTests {
    struct Golden: CustomStringConvertible, Sendable {
        let name: String
        let head: HTTPRequestHead
        let wire: String
        var description: String { name }
    }

    static let goldens: [Golden] = [
        Golden(
            name: "GET, origin-form, no body",
            head: HTTPRequestHead(
                method: .get,
                target: .origin("/search?q=wick&page=2"),
                host: "example.com",
                headers: [HTTPHeader(name: "Accept", value: "*/*"), HTTPHeader(name: "User-Agent", value: "wick/1.0")]
            ),
            wire:
                "GET /search?q=wick&page=2 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nUser-Agent: wick/1.0\r\n\r\n"
        ),
        Golden(
            name: "POST, Content-Length",
            head: HTTPRequestHead(
                method: .post,
                target: .origin("/upload"),
                host: "example.com:8080",
                headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                framing: .contentLength(1234)
            ),
            wire:
                "POST /upload HTTP/1.1\r\nHost: example.com:8080\r\nContent-Type: application/json\r\nContent-Length: 1234\r\n\r\n"
        ),
        Golden(
            name: "POST, empty body",
            head: HTTPRequestHead(method: .post, target: .origin("/"), host: "h", framing: .contentLength(0)),
            wire: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"
        ),
        Golden(
            name: "PUT, chunked",
            head: HTTPRequestHead(method: .put, target: .origin("/stream"), host: "h", framing: .chunked),
            wire: "PUT /stream HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        ),
        Golden(
            name: "GET, absolute-form to a proxy",
            head: HTTPRequestHead(method: .get, target: .absolute("http://example.com/a?b=c"), host: "example.com"),
            wire: "GET http://example.com/a?b=c HTTP/1.1\r\nHost: example.com\r\n\r\n"
        ),
        Golden(
            name: "CONNECT, authority-form",
            head: HTTPRequestHead(
                method: .connect,
                target: .authority("[2001:db8::1]:443"),
                host: "[2001:db8::1]:443",
                headers: [HTTPHeader(name: "Proxy-Authorization", value: "Basic d2ljazp3aWNr")]
            ),
            wire:
                "CONNECT [2001:db8::1]:443 HTTP/1.1\r\nHost: [2001:db8::1]:443\r\nProxy-Authorization: Basic d2ljazp3aWNr\r\n\r\n"
        ),
        Golden(
            name: "OPTIONS, asterisk-form",
            head: HTTPRequestHead(method: .options, target: .asterisk, host: "example.com"),
            wire: "OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n"
        ),
        Golden(
            name: "caller's Host is used once, first",
            head: HTTPRequestHead(
                method: .get,
                target: .origin("/"),
                host: "ignored.example",
                headers: [
                    HTTPHeader(name: "Accept", value: "text/html"), HTTPHeader(name: "host", value: "virtual.example"),
                ]
            ),
            wire: "GET / HTTP/1.1\r\nHost: virtual.example\r\nAccept: text/html\r\n\r\n"
        ),
        Golden(
            name: "caller's agreeing framing fields are written once",
            head: HTTPRequestHead(
                method: .post,
                target: .origin("/"),
                host: "h",
                headers: [HTTPHeader(name: "content-length", value: "5"), HTTPHeader(name: "X-A", value: "1")],
                framing: .contentLength(5)
            ),
            wire: "POST / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nContent-Length: 5\r\n\r\n"
        ),
        Golden(
            name: "caller's Transfer-Encoding: chunked is written once",
            head: HTTPRequestHead(
                method: .post,
                target: .origin("/"),
                host: "h",
                headers: [HTTPHeader(name: "Transfer-Encoding", value: "Chunked")],
                framing: .chunked
            ),
            wire: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        ),
        Golden(
            name: "chunked with a Trailer announcement",
            head: HTTPRequestHead(
                method: .post,
                target: .origin("/"),
                host: "h",
                headers: [HTTPHeader(name: "Trailer", value: "X-Checksum")],
                framing: .chunked
            ),
            wire: "POST / HTTP/1.1\r\nHost: h\r\nTrailer: X-Checksum\r\nTransfer-Encoding: chunked\r\n\r\n"
        ),
        Golden(
            name: "tab, obs-text and empty values pass",
            head: HTTPRequestHead(
                method: "PROPFIND",
                target: .origin("/caf%C3%A9"),
                host: "h",
                headers: [
                    HTTPHeader(name: "X-Tab", value: "a\tb"), HTTPHeader(name: "X-Name", value: "café"),
                    HTTPHeader(name: "X-Empty", value: ""),
                ]
            ),
            wire: "PROPFIND /caf%C3%A9 HTTP/1.1\r\nHost: h\r\nX-Tab: a\tb\r\nX-Name: café\r\nX-Empty: \r\n\r\n"
        ),
        Golden(
            name: "every tchar in a name and a method",
            head: HTTPRequestHead(
                method: "M!#$%&'*+-.^_`|~09azAZ",
                target: .origin("/"),
                host: "h",
                headers: [HTTPHeader(name: "!#$%&'*+-.^_`|~09azAZ", value: "v")]
            ),
            wire: "M!#$%&'*+-.^_`|~09azAZ / HTTP/1.1\r\nHost: h\r\n!#$%&'*+-.^_`|~09azAZ: v\r\n\r\n"
        ),
    ]

    @Test(arguments: goldens)
    func writesTheGoldenBytes(_ golden: Golden) throws {
        var buffer: [UInt8] = []
        try HTTPRequestEncoder.encodeHead(golden.head, into: &buffer)
        #expect(buffer == Array(golden.wire.utf8), "\(String(decoding: buffer, as: UTF8.self))")
    }

    @Test func appendsToTheBufferAndReusesItsCapacity() throws {
        let head = Self.goldens[1].head
        var buffer = Array("previous".utf8)
        try HTTPRequestEncoder.encodeHead(head, into: &buffer)
        #expect(buffer == Array(("previous" + Self.goldens[1].wire).utf8))
        buffer.removeAll(keepingCapacity: true)
        let capacity = buffer.capacity
        for _ in 0..<3 {
            buffer.removeAll(keepingCapacity: true)
            try HTTPRequestEncoder.encodeHead(head, into: &buffer)
        }
        #expect(buffer.capacity == capacity)
    }

    @Test(arguments: [
        (1, "1"), (9, "9"), (10, "a"), (15, "f"), (16, "10"), (255, "ff"), (4096, "1000"), (0x1A2B, "1a2b"),
        (Int.max, "7fffffffffffffff"),
    ])
    func chunkHeadersAreLowercaseHex(length: Int, hex: String) {
        var buffer: [UInt8] = []
        HTTPRequestEncoder.encodeChunkHeader(length: length, into: &buffer)
        #expect(buffer == Array((hex + "\r\n").utf8))
    }

    @Test(arguments: [(0, "0"), (7, "7"), (10, "10"), (99, "99"), (100, "100"), (Int.max, "9223372036854775807")])
    func contentLengthIsDecimal(length: Int, decimal: String) throws {
        var buffer: [UInt8] = []
        try HTTPRequestEncoder.encodeHead(
            HTTPRequestHead(method: .put, target: .origin("/"), host: "h", framing: .contentLength(length)),
            into: &buffer
        )
        #expect(buffer == Array("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: \(decimal)\r\n\r\n".utf8))
    }

    @Test func chunksAndTheLastChunkWithTrailers() throws {
        var buffer: [UInt8] = []
        HTTPRequestEncoder.encodeChunk(Array("hello".utf8), into: &buffer)
        HTTPRequestEncoder.encodeChunk([UInt8](), into: &buffer)  // nothing: would end the body
        HTTPRequestEncoder.encodeChunk([UInt8](repeating: 0x41, count: 26), into: &buffer)
        HTTPRequestEncoder.encodeChunkHeader(length: 2, into: &buffer)
        buffer += Array("ok".utf8)
        HTTPRequestEncoder.encodeChunkEnd(into: &buffer)
        try HTTPRequestEncoder.encodeLastChunk(
            trailers: [
                HTTPHeader(name: "X-Checksum", value: "abc"), HTTPHeader(name: "Server-Timing", value: "db;dur=5"),
            ],
            into: &buffer
        )
        let expected =
            "5\r\nhello\r\n1a\r\n" + String(repeating: "A", count: 26) + "\r\n2\r\nok\r\n"
            + "0\r\nX-Checksum: abc\r\nServer-Timing: db;dur=5\r\n\r\n"
        #expect(buffer == Array(expected.utf8))
    }

    @Test func theLastChunkWithoutTrailers() throws {
        var buffer: [UInt8] = []
        try HTTPRequestEncoder.encodeLastChunk(into: &buffer)
        #expect(buffer == Array("0\r\n\r\n".utf8))
    }
}
