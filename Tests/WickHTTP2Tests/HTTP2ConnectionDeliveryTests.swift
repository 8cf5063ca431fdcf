// The connection machine under every delivery pattern: a whole exchange cut at every byte offset,
// one byte at a time and in seeded random pieces produces the same events and the same output.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP2

@Suite struct HTTP2ConnectionDeliveryTests {
    /// A client with three streams (a GET, a HEAD and a POST with a body) and the server's bytes
    /// answering them with most frame kinds: SETTINGS, 1xx, a split field block, padded DATA,
    /// trailers, PING, PRIORITY, WINDOW_UPDATE, an unknown frame, RST_STREAM and GOAWAY.
    static func script() -> (ConnectionHarness, [UInt8]) {
        var harness = ConnectionHarness(handshake: false)
        _ = harness.get("/a")
        _ = harness.get("/b", method: .head)
        _ = harness.get("/c", method: .post, endStream: false)
        var server = harness.server
        var bytes = server.settings([HTTP2Setting(.maxConcurrentStreams, 10), HTTP2Setting(.headerTableSize, 256)])
        bytes += server.frame(0, .settingsAck)
        bytes += server.headers(1, [":status": "103", "link": "</s.css>"])
        let block = server.block([
            ":status": "200", "content-type": "text/plain", "x-long": String(repeating: "z", count: 50),
        ])
        bytes += server.frame(
            1, .headers(HTTP2HeadersFrame(fieldBlockFragment: Array(block[..<7]), endStream: false, endHeaders: false)))
        bytes += server.frame(1, .continuation(fieldBlockFragment: Array(block[7...]), endHeaders: true))
        bytes += server.frame(0, .ping(opaqueData: 42, ack: false))
        bytes += server.data(1, Array("first ".utf8), padding: 10)
        bytes += server.frame(3, .priority(HTTP2Priority(exclusive: false, dependency: HTTP2StreamID(1), weight: 9)))
        bytes += server.headers(3, [":status": "200", "content-length": "1234"], endStream: true)
        bytes += server.frame(0, .unknown(type: 0xEE, length: 5))
        bytes += server.data(1, Array("second".utf8))
        bytes += server.headers(1, ["x-checksum": "abc"], endStream: true)
        bytes += server.frame(5, .windowUpdate(increment: 100))
        bytes += server.frame(0, .windowUpdate(increment: 100))
        bytes += server.headers(5, [":status": "400", "content-length": "0"], endStream: true)
        bytes += server.frame(5, .rstStream(.noError))
        bytes += server.frame(
            0, .goAway(lastStreamID: HTTP2StreamID(5), errorCode: .noError, debugData: Array("bye".utf8)))
        harness.server = server
        return (harness, bytes)
    }

    static func run(_ pieces: [ArraySlice<UInt8>]) -> (events: [HTTP2ConnectionEvent], output: [UInt8]) {
        var (harness, _) = script()
        var events: [HTTP2ConnectionEvent] = []
        var output: [UInt8] = []
        for piece in pieces {
            events += harness.machine.bytesReceived(piece, at: harness.now)
            output += harness.machine.takePendingOutput()
        }
        return (events, output)
    }

    @Test func aWholeExchangeGivesTheSameEventsHoweverItIsCut() {
        let (_, bytes) = Self.script()
        let whole = Self.run([bytes[...]])
        #expect(whole.events.count == 12)
        #expect(whole.events.allSatisfy { $0.protocolError == nil })
        #expect(
            whole.events.last
                == .goAway(
                    HTTP2GoAway(
                        lastStreamID: HTTP2StreamID(5), errorCode: .noError, debugData: Array("bye".utf8),
                        unprocessedStreams: [])))

        var deliveries = Delivery.all(of: bytes)
        var random = SeededRandom(seed: 2)
        for cut in 0..<50 {
            var pieces: [ArraySlice<UInt8>] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 0...40, using: &random))
                pieces.append(bytes[start..<end])
                start = end
            }
            deliveries.append(Delivery(name: "random cut \(cut)", pieces: pieces))
        }
        for delivery in deliveries {
            let outcome = Self.run(delivery.pieces)
            #expect(outcome.events == whole.events, "\(delivery)")
            #expect(outcome.output == whole.output, "\(delivery)")
        }
    }

    @Test func theDriversFormGivesTheSameEventsIntoOneReusedArray() {
        let (_, bytes) = Self.script()
        let whole = Self.run([bytes[...]])
        for delivery in [Delivery.chunks(bytes, size: 1), Delivery.chunks(bytes, size: 23)] {
            var (harness, _) = Self.script()
            var events: [HTTP2ConnectionEvent] = []
            var all: [HTTP2ConnectionEvent] = []
            var output: [UInt8] = []
            for piece in delivery.pieces {
                let copy = Array(piece)
                copy.withUnsafeBufferPointer { harness.machine.bytesReceived($0, at: harness.now, into: &events) }
                all += events
                events.removeAll(keepingCapacity: true)
                output += harness.machine.takePendingOutput()
            }
            #expect(all == whole.events, "\(delivery)")
            #expect(output == whole.output, "\(delivery)")
        }
    }

    @Test func mutatedExchangesNeverCrashAndFailAtMostOnce() {
        let (_, bytes) = Self.script()
        var random = SeededRandom(seed: 77)
        for _ in 0..<300 {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let outcome = Self.run(Delivery.chunks(mutated, size: Int.random(in: 1...64, using: &random)).pieces)
            let failures = outcome.events.enumerated().filter {
                if case .connectionFailed = $0.element { true } else { false }
            }
            #expect(failures.count <= 1)
            if let failure = failures.first {
                #expect(failure.offset == outcome.events.count - 1, "nothing after a connection error")
            }
        }
    }
}
