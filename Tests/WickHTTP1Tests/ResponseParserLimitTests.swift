// The default limits at N and N + 1, with inputs too large to keep readable in a fixture.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

@Suite struct ResponseParserLimitTests {
    static let defaults = HTTPParserConfiguration()

    /// Deliveries for large inputs: all at once, byte by byte, and two uneven chunk sizes
    /// (every split offset would be quadratic in tens of kilobytes).
    static func deliveries(_ input: [UInt8]) -> [Delivery] {
        [.whole(input), .byteAtATime(input), .chunks(input, size: 7), .chunks(input, size: 1000)]
    }

    /// Runs `input` through every delivery and checks they agree; returns the events.
    static func events(_ input: [UInt8], _ options: [String: String] = [:]) throws -> [String] {
        let harness = try ResponseParserHarness(options: options)
        let reference = harness.run([input[...]])
        for delivery in deliveries(input).dropFirst() {
            #expect(harness.run(delivery.pieces) == reference, "\(delivery)")
        }
        return reference.events
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [0, 1])
    func statusLine(excess: Int) throws {
        // "HTTP/1.1 200 " + reason + CRLF is exactly maxStatusLineBytes when excess is 0.
        let reason = String(repeating: "r", count: Self.defaults.maxStatusLineBytes - 15 + excess)
        let input = Self.bytes("HTTP/1.1 200 \(reason)\r\nContent-Length: 0\r\n\r\n")
        let events = try Self.events(input)
        if excess == 0 {
            #expect(events.first == "head 200 HTTP/1.1 length:0 \(reason)")
        } else {
            #expect(events == ["error=statusLineTooLong at=\(Self.defaults.maxStatusLineBytes)"])
        }
    }

    @Test(arguments: [0, 1])
    func fieldLine(excess: Int) throws {
        let value = String(repeating: "v", count: Self.defaults.maxFieldLineBytes - 7 + excess)
        let input = Self.bytes("HTTP/1.1 200 OK\r\nX-L: \(value)\r\nContent-Length: 0\r\n\r\n")
        let events = try Self.events(input)
        if excess == 0 {
            #expect(events.dropFirst().first == "field X-L: \(value)")
        } else {
            #expect(events == ["error=fieldLineTooLong at=\(17 + Self.defaults.maxFieldLineBytes)"])
        }
    }

    @Test(arguments: [0, 1])
    func headBytes(excess: Int) throws {
        // 17 (status) + 19 (Content-Length) + 2 (end) + filler lines of 1,000 bytes and one
        // shorter line; the total is maxHeadBytes + excess.
        let fixed = 17 + 19 + 2
        var filler = ""
        var remaining = Self.defaults.maxHeadBytes - fixed + excess
        var index = 0
        while remaining > 0 {
            let length = min(1000, remaining)
            let prefix = "X-\(index): "
            filler += prefix + String(repeating: "f", count: length - prefix.utf8.count - 2) + "\r\n"
            remaining -= length
            index += 1
        }
        let input = Self.bytes("HTTP/1.1 200 OK\r\n\(filler)Content-Length: 0\r\n\r\n")
        #expect(input.count == Self.defaults.maxHeadBytes + excess)
        let events = try Self.events(input)
        if excess == 0 {
            #expect(events.last == "end reusable")
        } else {
            #expect(events == ["error=headTooLarge at=\(Self.defaults.maxHeadBytes)"])
        }
    }

    @Test(arguments: [0, 1])
    func fieldCount(excess: Int) throws {
        let count = Self.defaults.maxFieldCount + excess
        let fields = (1..<count).map { "X-\($0): \($0)\r\n" }.joined()
        let input = Self.bytes("HTTP/1.1 200 OK\r\n\(fields)Content-Length: 0\r\n\r\n")
        let events = try Self.events(input)
        if excess == 0 {
            #expect(events.filter { $0.hasPrefix("field ") }.count == count)
        } else {
            // The field past the limit is the Content-Length line after the fillers.
            let offset = 17 + fields.utf8.count
            #expect(events == ["error=tooManyFields at=\(offset)"])
        }
    }

    @Test(arguments: [0, 1])
    func chunkExtensionBytes(excess: Int) throws {
        let extensions = ";" + String(repeating: "e", count: Self.defaults.maxChunkExtensionBytes - 1 + excess)
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let input = Self.bytes("\(head)1\(extensions)\r\nz\r\n0\r\n\r\n")
        let events = try Self.events(input)
        if excess == 0 {
            #expect(events.suffix(2) == ["body z", "end reusable"])
        } else {
            let offset = head.utf8.count + 1 + Self.defaults.maxChunkExtensionBytes
            #expect(events.last == "error=chunkExtensionTooLong at=\(offset)")
        }
    }

    @Test(arguments: [0, 1])
    func trailerBytes(excess: Int) throws {
        // One trailer line of (maxTrailerBytes - 2 + excess) bytes, then the empty line.
        let value = String(repeating: "t", count: Self.defaults.maxTrailerBytes - 2 - 7 + excess)
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        let input = Self.bytes("\(head)X-T: \(value)\r\n\r\n")
        let events = try Self.events(input, ["maxFieldLineBytes": "\(Self.defaults.maxTrailerBytes)"])
        if excess == 0 {
            #expect(events.suffix(2) == ["trailer X-T: \(value)", "end reusable"])
        } else {
            #expect(events.last == "error=trailersTooLarge at=\(head.utf8.count + Self.defaults.maxTrailerBytes)")
        }
    }
}
