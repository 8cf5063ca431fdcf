// Every limit against hostile servers, at N (accepted) and N + 1 (refused with its error).
import Testing
import WickCore

@testable import WickHTTP2

@Suite struct HTTP2LimitTests {
    /// HEADERS then `continuations` CONTINUATION frames carrying the block `block` in even parts.
    static func splitBlock(_ server: ServerPeer, _ block: [UInt8], continuations: Int) -> [UInt8] {
        let parts = continuations + 1
        let size = (block.count + parts - 1) / parts
        var bytes: [UInt8] = []
        for part in 0..<parts {
            let fragment = Array(block[min(block.count, part * size)..<min(block.count, (part + 1) * size)])
            let last = part == parts - 1
            bytes +=
                part == 0
                ? server.frame(
                    1, .headers(HTTP2HeadersFrame(fieldBlockFragment: fragment, endStream: true, endHeaders: last)))
                : server.frame(1, .continuation(fieldBlockFragment: fragment, endHeaders: last))
        }
        return bytes
    }

    @Test func continuationFramesPerBlockAreLimited() {
        for (continuations, fails) in [(2, false), (3, true)] {
            var configuration = HTTP2Configuration()
            configuration.maxContinuationFrames = 2
            var harness = ConnectionHarness(configuration)
            let id = harness.get()
            let block = harness.server.block([":status": "200", "x": String(repeating: "{", count: 40)])
            let events = harness.receive(Self.splitBlock(harness.server, block, continuations: continuations))
            if fails {
                #expect(
                    events == [
                        .connectionFailed(
                            .connection(.tooManyContinuationFrames, code: .enhanceYourCalm), openStreams: [id])
                    ])
                #expect(
                    harness.writtenPayloads.first
                        == .goAway(
                            lastStreamID: .connection, errorCode: .enhanceYourCalm,
                            debugData: Array("tooManyContinuationFrames".utf8)))
            } else {
                #expect(events.last == .streamClosed(id))
            }
        }
    }

    @Test func emptyContinuationFloodsStopAtTheCountLongBeforeAnyByteLimit() {
        var harness = ConnectionHarness()
        _ = harness.get()
        var bytes = harness.server.frame(
            1, .headers(HTTP2HeadersFrame(fieldBlockFragment: [0x88], endStream: true, endHeaders: false)))
        for _ in 0..<10_000 {
            bytes += harness.server.frame(1, .continuation(fieldBlockFragment: [], endHeaders: false))
        }
        #expect(harness.receive(bytes).first?.protocolError?.kind == .tooManyContinuationFrames)
    }

    @Test func fieldBlockBytesAreLimitedAcrossFragments() {
        for (size, fails) in [(100, false), (101, true)] {
            var configuration = HTTP2Configuration()
            configuration.maxFieldBlockBytes = 100
            var harness = ConnectionHarness(configuration)
            _ = harness.get()
            // A literal header without indexing of exactly `size` bytes: 0x00, name length, name, value length, value.
            let valueLength = size - 6
            let block =
                [0x88, 0x00, 0x02] + Array("xx".utf8) + [UInt8(valueLength)]
                + Array(repeating: UInt8(ascii: "v"), count: valueLength)
            #expect(block.count == size)
            let events = harness.receive(Self.splitBlock(harness.server, block, continuations: 3))
            #expect((events.first?.protocolError?.kind == .fieldBlockTooLarge) == fails, "\(size)")
            #expect((events.first?.protocolError?.code == .enhanceYourCalm) == fails)
        }
    }

    @Test func theDecodedHeaderListIsLimitedPerStreamAndTheConnectionGoesOn() {
        for (valueLength, fails) in [(60, false), (61, true)] {
            var configuration = HTTP2Configuration()
            // `:status: 200` costs 7 + 3 + 32; `x: <60 v>` costs 1 + 60 + 32.
            configuration.maxHeaderListSize = 42 + 93
            var harness = ConnectionHarness(configuration)
            let first = harness.get()
            let events = harness.receive(
                harness.server.headers(
                    1, [":status": "200", "x": String(repeating: "v", count: valueLength)], endStream: true))
            if fails {
                #expect(events == [.streamFailed(first, .stream(first, .headerListTooLarge, code: .protocolError))])
                let second = harness.get()
                #expect(
                    harness.receive(
                        harness.server.headers(
                            3, [":status": "200", "x": String(repeating: "v", count: valueLength)], endStream: true)
                    ).first
                        == .streamFailed(second, .stream(second, .headerListTooLarge, code: .protocolError)),
                    "the table stayed in step")
            } else {
                #expect(events.last == .streamClosed(first))
            }
        }
    }

    @Test func framesAboveTheAdvertisedMaxFrameSizeAreConnectionErrors() {
        for (size, fails) in [(20_000, false), (20_001, true)] {
            var configuration = HTTP2Configuration()
            configuration.maxFrameSize = 20_000
            var harness = ConnectionHarness(configuration)
            _ = harness.get()
            let events = harness.receive(
                harness.server.headers(1, [":status": "200"]) + harness.server.data(1, Array(repeating: 0, count: size))
            )
            #expect((events.last?.protocolError == .connection(.frameTooLarge, code: .frameSizeError)) == fails)
        }
    }

    @Test func theServerMayGrowTheDecoderTableToTheAdvertisedSizeAndNoFurther() {
        for (size, fails) in [(8192, false), (8193, true)] {
            var configuration = HTTP2Configuration()
            configuration.headerTableSize = 8192
            var harness = ConnectionHarness(configuration)
            _ = harness.get()
            var block: [UInt8] = []
            HPACKInteger.encode(size, prefixBits: 5, firstByteFlags: 0x20, into: &block)
            block.append(0x88)
            let events = harness.receive(
                harness.server.frame(
                    1, .headers(HTTP2HeadersFrame(fieldBlockFragment: block, endStream: true, endHeaders: true))))
            if fails {
                #expect(
                    events.first?.protocolError
                        == .connection(
                            .compressionFailed, code: .compressionError,
                            hpackError: HPACKError(.tableSizeUpdateTooLarge, at: 0)))
            } else {
                #expect(events.count == 2)
            }
        }
    }

    @Test func theClientOpensNoMoreStreamsThanItsOwnLimit() {
        var configuration = HTTP2Configuration()
        configuration.maxConcurrentStreams = 2
        var harness = ConnectionHarness(configuration, serverSettings: [HTTP2Setting(.maxConcurrentStreams, 100)])
        let first = harness.get()
        _ = harness.get()
        #expect(harness.machine.availableStreamCapacity == 0)
        #expect(throws: HTTP2RequestError.streamLimitReached) {
            try harness.machine.openStream(
                HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/"), endStream: true)
        }
        _ = harness.receive(harness.server.headers(1, [":status": "200"], endStream: true))
        #expect(harness.machine.availableStreamCapacity == 1 && !harness.machine.openStreams.contains(first))
    }

    /// A server that sends `burst` + `extra` copies of one frame; true when the client called it a flood.
    /// The POST on stream 1 has its response head unless `respondFirst` is false.
    static func floods(
        _ frame: (inout ConnectionHarness) -> [UInt8], burst: Int, extra: Int, perSecond: Int = 0,
        respondFirst: Bool = true
    ) -> Bool {
        var configuration = HTTP2Configuration()
        configuration.controlFrameRate = HTTP2FrameRateLimit(burst: burst, perSecond: perSecond)
        // The handshake's SETTINGS and ACK count too: make room for them.
        configuration.controlFrameRate.burst += 2
        var harness = ConnectionHarness(configuration)
        _ = harness.get(method: .post, endStream: false)
        if respondFirst { _ = harness.receive(harness.server.headers(1, [":status": "200"])) }
        var bytes: [UInt8] = []
        for _ in 0..<(burst + extra) { bytes += frame(&harness) }
        let events = harness.receive(bytes)
        return events.last?.protocolError == .connection(.controlFrameFlood, code: .enhanceYourCalm)
    }

    @Test(
        "floods of each kind, at the burst and one past it",
        arguments: [
            "PING", "SETTINGS", "RST_STREAM on a closed stream", "empty DATA", "PRIORITY", "unknown type",
            "empty HEADERS",
        ])
    func controlFrameFloodsAreEnhanceYourCalm(kind: String) {
        let frame: (inout ConnectionHarness) -> [UInt8] = { harness in
            switch kind {
            case "PING": harness.server.frame(0, .ping(opaqueData: 1, ack: false))
            case "SETTINGS": harness.server.settings()
            case "RST_STREAM on a closed stream": harness.server.frame(1, .rstStream(.cancel))
            case "empty DATA": harness.server.data(1, [])
            case "PRIORITY":
                harness.server.frame(1, .priority(HTTP2Priority(exclusive: false, dependency: .connection, weight: 0)))
            case "unknown type": harness.server.frame(0, .unknown(type: 0x77, length: 0))
            default:
                // An empty HEADERS, then a CONTINUATION with `:status: 103`: the stream stays open.
                harness.server.frame(
                    1, .headers(HTTP2HeadersFrame(fieldBlockFragment: [], endStream: false, endHeaders: false)))
                    + harness.server.frame(
                        1, .continuation(fieldBlockFragment: [0x48, 0x03] + Array("103".utf8), endHeaders: true))
            }
        }
        let respondFirst = kind != "empty HEADERS"
        #expect(
            !Self.floods(
                frame, burst: 50, extra: 0, respondFirst: respondFirst),
            "\(kind) at the burst")
        #expect(Self.floods(frame, burst: 50, extra: 1, respondFirst: respondFirst), "\(kind) past the burst")
    }

    @Test func fieldBlocksForEndedStreamsAreMetered() {
        for (count, floods) in [(20, false), (21, true)] {
            var configuration = HTTP2Configuration()
            configuration.controlFrameRate = HTTP2FrameRateLimit(burst: 22, perSecond: 0)  // 2 for the handshake
            var harness = ConnectionHarness(configuration)
            let id = harness.get()
            #expect(
                harness.receive(harness.server.headers(1, [":status": "200"], endStream: true)).last
                    == .streamClosed(id))
            let late = harness.server.frame(
                1, .headers(HTTP2HeadersFrame(fieldBlockFragment: [0x88], endStream: true, endHeaders: true)))
            let events = harness.receive(Array([[UInt8]](repeating: late, count: count).joined()))
            #expect((events.last?.protocolError?.kind == .controlFrameFlood) == floods, "\(count)")
        }
    }

    @Test func theFloodBucketRefillsWithTime() {
        var configuration = HTTP2Configuration()
        configuration.controlFrameRate = HTTP2FrameRateLimit(burst: 12, perSecond: 10)
        var harness = ConnectionHarness(configuration)  // SETTINGS + ACK: 10 left
        let ping = harness.server.frame(0, .ping(opaqueData: 1, ack: false))
        #expect(harness.receive(Array([[UInt8]](repeating: ping, count: 10).joined())).isEmpty)
        harness.now = harness.now + .milliseconds(500)  // 5 more
        #expect(harness.receive(Array([[UInt8]](repeating: ping, count: 5).joined())).isEmpty)
        #expect(harness.receive(ping).first?.protocolError?.kind == .controlFrameFlood)
    }
}
