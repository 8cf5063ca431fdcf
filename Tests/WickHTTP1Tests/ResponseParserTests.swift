// The parser's API contracts beyond the golden cases: cost, storage reuse, lookups, lifecycle.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

@Suite struct ResponseParserTests {
    /// Parses one whole response from `bytes` and returns its final head (nil if none).
    static func parseHead(
        _ parser: inout HTTPResponseParser,
        _ bytes: [UInt8],
        method: HTTPMethod = .get
    ) throws -> HTTPResponseHead? {
        parser.expectResponse(to: method)
        var head: HTTPResponseHead?
        try bytes.withUnsafeBytes { raw in
            var used = 0
            while true {
                let step = try parser.parse(UnsafeRawBufferPointer(rebasing: raw[used...]))
                used += step.consumed
                switch step.event {
                case .head(let final): head = final
                case .end, .needMoreData: return
                default: continue
                }
            }
        }
        return head
    }

    static let response = Array(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Token: abc\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Length: 0\r\n\r\n"
            .utf8)

    /// A head of `count` fields, about 40 bytes each.
    static func largeHead(fields count: Int) -> [UInt8] {
        let fields = (0..<count).map { "X-Field-\($0): value-\($0)-padding-padding\r\n" }.joined()
        return Array("HTTP/1.1 200 OK\r\n\(fields)Content-Length: 0\r\n\r\n".utf8)
    }

    @Test func splitInputCostsLinearBytes() throws {
        let input = Self.largeHead(fields: 400)
        var examined: [String: Int] = [:]
        for delivery in [Delivery.whole(input), .byteAtATime(input), .chunks(input, size: 3), .chunks(input, size: 61)]
        {
            var configuration = HTTPParserConfiguration()
            configuration.maxFieldCount = 1000
            var parser = HTTPResponseParser(configuration: configuration)
            parser.expectResponse(to: .get)
            var sawEnd = false
            for piece in delivery.pieces {
                try piece.withUnsafeBytes { raw in
                    var used = 0
                    while !sawEnd {
                        let step = try parser.parse(UnsafeRawBufferPointer(rebasing: raw[used...]))
                        used += step.consumed
                        if case .needMoreData = step.event { return }
                        if case .end = step.event { sawEnd = true }
                    }
                }
            }
            #expect(sawEnd, "\(delivery)")
            examined[delivery.name] = parser.examinedByteCount
        }
        // A byte is looked at by at most one in-place attempt, one LF search and one
        // validation, however the input is cut: never once per piece.
        let whole = try #require(examined["whole"])
        #expect(whole <= input.count + input.count / 10)
        for (name, count) in examined {
            #expect(count <= 3 * input.count, "\(name) examined \(count) bytes for \(input.count)")
        }
    }

    @Test func storageIsReusedWhenHeadsAreDropped() throws {
        var parser = HTTPResponseParser()
        _ = try Self.parseHead(&parser, Self.response)
        let first = ObjectIdentifier(parser.storage)
        for _ in 0..<5 {
            let head = try #require(try Self.parseHead(&parser, Self.response))
            #expect(head.fields.count == 5)
        }
        #expect(ObjectIdentifier(parser.storage) == first)
    }

    @Test func heldHeadsStayIntactWhileTheParserMovesOn() throws {
        var parser = HTTPResponseParser(
            configuration: {
                var configuration = HTTPParserConfiguration()
                configuration.initialHeadCapacity = 64  // forces growth while heads are held
                return configuration
            }())
        var held: [HTTPResponseHead] = []
        for index in 0..<20 {
            let bytes = Array("HTTP/1.1 200 OK\r\nX-Index: \(index)\r\nContent-Length: 0\r\n\r\n".utf8)
            held.append(try #require(try Self.parseHead(&parser, bytes)))
        }
        for (index, head) in held.enumerated() {
            #expect(head.fields.firstValue(forName: "x-index") == "\(index)")
            #expect(head.reasonPhrase == "OK")
        }
    }

    @Test func trailersDoNotOverwriteAHeldHead() throws {
        let bytes = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Head: kept\r\n\r\n0\r\nX-Trailer: t\r\n\r\n".utf8)
        var parser = HTTPResponseParser()
        parser.expectResponse(to: .get)
        var head: HTTPResponseHead?
        var trailers: HTTPFieldList?
        try bytes.withUnsafeBytes { raw in
            var used = 0
            while true {
                let step = try parser.parse(UnsafeRawBufferPointer(rebasing: raw[used...]))
                used += step.consumed
                switch step.event {
                case .head(let value): head = value
                case .trailers(let value): trailers = value
                case .end: return
                default: continue
                }
            }
        }
        #expect(head?.fields.firstValue(forName: "X-Head") == "kept")
        #expect(trailers?.firstValue(forName: "x-trailer") == "t")
    }

    @Test func lookupsAndConversions() throws {
        var parser = HTTPResponseParser()
        let head = try #require(try Self.parseHead(&parser, Self.response))
        let fields = head.fields
        #expect(head.status == .ok)
        #expect(head.version == .http1_1)
        #expect(head.framing == .contentLength(0))
        #expect(fields.contains(name: "CONTENT-TYPE"))
        #expect(!fields.contains(name: "Content-Typ"))
        #expect(!fields.contains(name: "Content-Types"))
        #expect(fields.firstValue(forName: "set-cookie") == "a=1")
        #expect(fields.firstValue(forName: "missing") == nil)
        // Any other StringProtocol takes the generic entry point, with the same answers.
        #expect(fields.firstValue(forName: "x set-cookie".dropFirst(2)) == "a=1")
        #expect(fields.firstValue(forName: "missing".dropFirst()) == nil)
        #expect(fields.firstValue(forName: "content-type", equals: "TEXT/PLAIN"))
        #expect(!fields.firstValue(forName: "content-type", equals: "text/plai"))
        #expect(!fields.firstValue(forName: "missing", equals: ""))
        #expect(fields.withFirstValueBytes(forName: "x-token") { Array($0) } == Array("abc".utf8))
        #expect(fields.withFirstValueBytes(forName: "missing") { $0.count } == nil)
        #expect(fields.name(at: 3) == "set-cookie")
        #expect(fields[1] == HTTPHeader(name: "X-Token", value: "abc"))
        let headers = head.headers
        #expect(headers.count == 5)
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers["content-length"] == "0")
    }

    @Test func headersOutliveTheParsersNextHeadsAndEqualTheFieldsAsSent() throws {
        var parser = HTTPResponseParser()
        let first = try #require(try Self.parseHead(&parser, Self.response)).headers
        // The parser reuses its storage for the next heads; the headers hold their own copy.
        for count in [3, 40] {
            _ = try #require(try Self.parseHead(&parser, Self.largeHead(fields: count)))
        }
        let expected: [HTTPHeader] = [
            HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: "X-Token", value: "abc"),
            HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "set-cookie", value: "b=2"),
            HTTPHeader(name: "Content-Length", value: "0"),
        ]
        #expect(Array(first) == expected)
        var eager = HTTPHeaders()
        for field in expected { eager.add(field) }
        #expect(first == eager)
        #expect(first.hashValue == eager.hashValue)
        #expect(first["x-token"] == "abc")
        #expect(!first.contains(name: "X-Field-0"))
    }

    @Test func bodyRangesIndexTheCallersBuffer() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody".utf8)
        var parser = HTTPResponseParser()
        parser.expectResponse(to: .get)
        try bytes.withUnsafeBytes { raw in
            let head = try parser.parse(raw)
            guard case .head = head.event else { Issue.record("expected the head, got \(head.event)"); return }
            let rest = UnsafeRawBufferPointer(rebasing: raw[head.consumed...])
            let body = try parser.parse(rest)
            guard case .body(let range) = body.event else { Issue.record("expected body, got \(body.event)"); return }
            #expect(range == 0..<4)
            #expect(body.consumed == 4)
            // In place: the range points into the very buffer that was passed, not a copy.
            #expect(rest.baseAddress! + range.lowerBound == raw.baseAddress! + 38)
        }
    }

    @Test func needMoreDataConsumesEverythingAndEmptyInputIsFine() throws {
        var parser = HTTPResponseParser()
        parser.expectResponse(to: .get)
        let partial = Array("HTTP/1.1 200 O".utf8)
        let step = try partial.withUnsafeBytes { raw in try parser.parse(raw) }
        guard case .needMoreData = step.event else { Issue.record("expected needMoreData"); return }
        #expect(step.consumed == partial.count)
        let empty = try parser.parse(UnsafeRawBufferPointer(start: nil, count: 0))
        guard case .needMoreData = empty.event else { Issue.record("expected needMoreData"); return }
        #expect(empty.consumed == 0)
    }

    @Test func resetRevivesAParserAfterAnError() throws {
        var parser = HTTPResponseParser()
        #expect(throws: HTTPParseError(.invalidVersion, at: 3)) {
            _ = try Self.parseHead(&parser, Array("HTTX/1.1 200 OK\r\n\r\n".utf8))
        }
        parser.reset()
        let head = try Self.parseHead(&parser, Self.response)
        #expect(head?.status == .ok)
    }

    @Test func eofWithoutAnExchangeIsQuiet() throws {
        var parser = HTTPResponseParser()
        #expect(try parser.eofReceived() == nil)
        _ = try Self.parseHead(&parser, Self.response)
        #expect(try parser.eofReceived() == nil)
    }

    @Test func errorDescriptionMatchesTheFixtureSpelling() {
        #expect(HTTPParseError(.bareLF, at: 7).description == "bareLF at 7")
    }
}

/// Driver bugs trap with a message naming the state and the call (checked in a child process).
@Suite struct ResponseParserMisuseTests {
    @Test func parseBeforeExpectResponseTraps() async {
        await #expect(processExitsWith: .failure) {
            var parser = HTTPResponseParser()
            _ = try? parser.parse(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    @Test func parseAfterAnErrorTraps() async {
        await #expect(processExitsWith: .failure) {
            var parser = HTTPResponseParser()
            parser.expectResponse(to: .get)
            let bytes = Array("nope\r\n".utf8)
            bytes.withUnsafeBytes { raw in
                _ = try? parser.parse(raw)
                _ = try? parser.parse(raw)
            }
        }
    }

    @Test func expectResponseMidMessageTraps() async {
        await #expect(processExitsWith: .failure) {
            var parser = HTTPResponseParser()
            parser.expectResponse(to: .get)
            parser.expectResponse(to: .get)
        }
    }
}
