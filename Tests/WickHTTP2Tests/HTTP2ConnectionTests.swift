// The connection and stream state machines, transition by transition (RFC 9113 §3.4, §5, §6, §8).
import Testing
import WickCore

@testable import WickHTTP2

@Suite struct HTTP2ConnectionTests {
    @Test func theClientStartsWithThePrefaceSettingsAndAConnectionWindowUpdate() {
        var machine = HTTP2ConnectionStateMachine()
        var server = ServerPeer()
        let frames = server.read(machine.takePendingOutput())
        #expect(
            frames.map(\.payload) == [
                .settings([
                    HTTP2Setting(.enablePush, 0), HTTP2Setting(.headerTableSize, 4096),
                    HTTP2Setting(.initialWindowSize, 1_048_576),
                    HTTP2Setting(.maxFrameSize, 16_384), HTTP2Setting(.maxHeaderListSize, 65_536),
                ]),
                .windowUpdate(increment: 8_388_608 - 65_535),
            ])
        #expect(!machine.hasPendingOutput)
    }

    @Test func serverSettingsAreAcknowledgedAndApplied() {
        var harness = ConnectionHarness(handshake: false)
        let events = harness.receive(
            harness.server.settings([HTTP2Setting(.maxConcurrentStreams, 1), HTTP2Setting(.maxFrameSize, 20_000)]))
        #expect(harness.writtenPayloads == [.settingsAck])
        #expect(
            harness.machine.remoteSettings.maxConcurrentStreams == 1
                && harness.machine.remoteSettings.maxFrameSize == 20_000)
        #expect(events.count == 1)
        #expect(harness.machine.availableStreamCapacity == 1)
        _ = harness.get()
        #expect(throws: HTTP2RequestError.streamLimitReached) {
            try harness.machine.openStream(
                HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/"), endStream: true)
        }
    }

    @Test func aFirstFrameOtherThanSettingsIsAConnectionError() {
        var harness = ConnectionHarness(handshake: false)
        let events = harness.receive(harness.server.frame(0, .ping(opaqueData: 1, ack: false)))
        #expect(
            events == [.connectionFailed(.connection(.missingServerPreface, code: .protocolError), openStreams: [])])
        #expect(
            harness.writtenPayloads == [
                .goAway(
                    lastStreamID: .connection, errorCode: .protocolError, debugData: Array("missingServerPreface".utf8))
            ])
        #expect(harness.machine.isFinished)
        #expect(harness.receive(harness.server.settings()).isEmpty)
    }

    @Test func requestsGoOutAsHeadersWithPseudoHeadersFirstAndConnectionFieldsDropped() throws {
        var harness = ConnectionHarness()
        let head = HTTP2RequestHead(
            method: .post, scheme: "https", authority: "example.com:8443", path: "/upload?x=1",
            headers: [
                "Content-Type": "text/plain", "Connection": "keep-alive", "Host": "example.com", "TE": "gzip",
                "Authorization": "Bearer secret", "X-Trim": "  padded \t",
            ])
        let id = try harness.machine.openStream(head, endStream: false)
        harness.flush()
        #expect(id == HTTP2StreamID(1))
        guard case .headers(let headers) = harness.written.first?.payload else {
            Issue.record("no HEADERS: \(harness.written)")
            return
        }
        #expect(!headers.endStream && headers.endHeaders)
        let decoded = harness.server.requestFields(harness.written)
        #expect(
            decoded == [
                [
                    HPACKHeaderField(":method", "POST"), HPACKHeaderField(":scheme", "https"),
                    HPACKHeaderField(":authority", "example.com:8443"), HPACKHeaderField(":path", "/upload?x=1"),
                    HPACKHeaderField("content-type", "text/plain"),
                    HPACKHeaderField("authorization", "Bearer secret", indexing: .neverIndexed),
                    HPACKHeaderField("x-trim", "padded"),
                ]
            ])
    }

    @Test func streamIdentifiersAreOddAndIncreasing() {
        var harness = ConnectionHarness()
        #expect(
            [harness.get(), harness.get(), harness.get()] == [HTTP2StreamID(1), HTTP2StreamID(3), HTTP2StreamID(5)])
    }

    @Test func requestsWithBytesHTTP2CannotCarryAreRefusedBeforeAnythingIsWritten() {
        var harness = ConnectionHarness()
        let bad: [HTTP2RequestHead] = [
            HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/", headers: ["X-Bad": "a\r\nb"]),
            HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/", headers: ["Bad Name": "v"]),
            HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/a b"),
            HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: ""),
        ]
        for head in bad {
            #expect(throws: HTTP2RequestError.self) { try harness.machine.openStream(head, endStream: true) }
        }
        #expect(!harness.machine.hasPendingOutput)
        #expect(harness.get() == HTTP2StreamID(1))
    }

    @Test func aResponseWithABodyEndsTheStream() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let bytes =
            harness.server.headers(1, [":status": "200", "content-length": "5"])
            + harness.server.data(1, Array("hel".utf8))
            + harness.server.data(1, Array("lo".utf8), endStream: true)
        let events = harness.receive(bytes)
        #expect(
            events == [
                .response(
                    id, HTTP2ResponseHead(status: .ok, headers: ["content-length": "5"], contentLength: 5),
                    endStream: false),
                .body(id, Array("hel".utf8)[...], endStream: false), .body(id, Array("lo".utf8)[...], endStream: true),
                .streamClosed(id),
            ])
        #expect(harness.machine.openStreams.isEmpty)
    }

    @Test func informationalResponsesComeBeforeTheFinalOne() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let events = harness.receive(
            harness.server.headers(1, [":status": "103", "link": "</a.css>; rel=preload"])
                + harness.server.headers(1, [":status": "100"])
                + harness.server.headers(1, [":status": "204"], endStream: true))
        #expect(
            events == [
                .informationalResponse(
                    id, HTTP2ResponseHead(status: .earlyHints, headers: ["link": "</a.css>; rel=preload"])),
                .informationalResponse(id, HTTP2ResponseHead(status: .continue, headers: [])),
                .response(id, HTTP2ResponseHead(status: .noContent, headers: []), endStream: true), .streamClosed(id),
            ])
    }

    @Test func trailersEndTheResponse() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let events = harness.receive(
            harness.server.headers(1, [":status": "200"]) + harness.server.data(1, [1])
                + harness.server.headers(1, ["grpc-status": "0"], endStream: true))
        #expect(events.suffix(2) == [.trailers(id, ["grpc-status": "0"]), .streamClosed(id)])
    }

    /// Sends `pairs` as the response to a fresh stream and returns the stream error's kind, after
    /// checking that RST_STREAM went out with PROTOCOL_ERROR and the connection lives on.
    static func malformedKind(
        _ pairs: KeyValuePairs<String, String>, endStream: Bool = true, prefix: KeyValuePairs<String, String>? = nil
    ) -> HTTP2ProtocolError.Kind? {
        var harness = ConnectionHarness()
        let id = harness.get()
        var bytes: [UInt8] = []
        if let prefix { bytes += harness.server.headers(1, prefix) }
        bytes += harness.server.headers(1, pairs, endStream: endStream)
        let events = harness.receive(bytes)
        guard case .streamFailed(id, let error)? = events.last else { return nil }
        guard harness.writtenPayloads == [.rstStream(error.code)], error.code == .protocolError else { return nil }
        let other = harness.get()
        let next = harness.receive(harness.server.headers(3, [":status": "200"], endStream: true))
        guard next.last == .streamClosed(other) else { return nil }
        return error.kind
    }

    @Test func malformedResponsesAreStreamErrors() {
        #expect(Self.malformedKind([":status": "200", "Content-Type": "x"]) == .uppercaseFieldName)
        #expect(Self.malformedKind([":status": "200", "bad name": "x"]) == .invalidFieldName)
        #expect(Self.malformedKind([":status": "200", "": "x"]) == .invalidFieldName)
        #expect(Self.malformedKind([":status": "200", "x": " leading"]) == .invalidFieldValue)
        #expect(Self.malformedKind([":status": "200", "x": "a\rb"]) == .invalidFieldValue)
        #expect(Self.malformedKind([":status": "200", "x": "a\u{0}b"]) == .invalidFieldValue)
        #expect(Self.malformedKind([":status": "200", "connection": "close"]) == .connectionSpecificField)
        #expect(Self.malformedKind([":status": "200", "transfer-encoding": "chunked"]) == .connectionSpecificField)
        #expect(Self.malformedKind(["server": "x"]) == .missingStatus)
        #expect(Self.malformedKind([":status": "200", ":status": "200"]) == .duplicatePseudoHeader)
        #expect(Self.malformedKind([":status": "200", ":method": "GET"]) == .invalidPseudoHeader)
        #expect(Self.malformedKind(["server": "x", ":status": "200"]) == .pseudoHeaderAfterRegularField)
        #expect(Self.malformedKind([":status": "2000"]) == .invalidStatus)
        #expect(Self.malformedKind([":status": "099"]) == .invalidStatus)
        #expect(Self.malformedKind([":status": "20a"]) == .invalidStatus)
        #expect(Self.malformedKind([":status": "101"], endStream: false) == .switchingProtocols)
        #expect(Self.malformedKind([":status": "103"]) == .informationalResponseEndsStream)
        #expect(
            Self.malformedKind([":status": "200", "content-length": "1", "content-length": "2"])
                == .invalidContentLength)
        #expect(Self.malformedKind([":status": "200", "content-length": "-1"]) == .invalidContentLength)
        #expect(Self.malformedKind([":status": "200", "content-length": "3"]) == .contentLengthMismatch)
        #expect(
            Self.malformedKind(["x": "y"], endStream: false, prefix: [":status": "200"]) == .trailersWithoutEndStream)
        #expect(
            Self.malformedKind([":status": "200"], endStream: true, prefix: [":status": "200"])
                == .pseudoHeaderInTrailers)
    }

    /// Every byte value in a response's field name: a lowercase token byte passes, an uppercase
    /// letter is `uppercaseFieldName`, anything else (bytes 128-255 too, which HPACK carries as
    /// they are) `invalidFieldName`: one test per byte decides, then the failing byte is told
    /// apart.
    @Test func everyNameByteIsJudgedAsRFC9113Wants() throws {
        for byte in UInt8.min...UInt8.max {
            var encoded: [UInt8] = []
            var encoder = HPACKEncoder()
            encoder.encode(
                [
                    HPACKHeaderField(":status", "200"),
                    HPACKHeaderField(name: [UInt8(ascii: "x"), byte], value: [0x76]),
                ],
                into: &encoded)
            var decoder = HPACKDecoder()
            let block = try decoder.decode(encoded[...])
            var kind: HTTP2ProtocolError.Kind?
            do { _ = try HTTP2FieldValidation.responseHead(block) } catch { kind = error.kind }
            let expected: HTTP2ProtocolError.Kind? =
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                ? .uppercaseFieldName : isHTTPTokenByte(byte) ? nil : .invalidFieldName
            #expect(kind == expected, "byte \(byte)")
        }
    }

    @Test func dataMustAgreeWithContentLength() {
        func failure(_ status: String, length: String?, data: [[UInt8]], method: HTTPMethod = .get)
            -> HTTP2ProtocolError.Kind?
        {
            var harness = ConnectionHarness()
            _ = harness.get(method: method)
            var bytes =
                length.map { harness.server.headers(1, [":status": status, "content-length": $0]) }
                ?? harness.server.headers(1, [":status": status])
            for (index, chunk) in data.enumerated() {
                bytes += harness.server.data(1, chunk, endStream: index == data.count - 1)
            }
            return harness.receive(bytes).compactMap(\.protocolError).first?.kind
        }
        #expect(failure("200", length: "3", data: [[1, 2], [3]]) == nil)
        #expect(failure("200", length: "3", data: [[1, 2], [3, 4]]) == .contentLengthMismatch)
        #expect(failure("200", length: "3", data: [[1, 2], []]) == .contentLengthMismatch)
        #expect(failure("200", length: "10", data: [[]], method: .head) == nil)
        #expect(failure("200", length: "10", data: [[1]], method: .head) == .contentInBodilessResponse)
        #expect(failure("204", length: nil, data: [[1]]) == .contentInBodilessResponse)
        #expect(failure("304", length: "7", data: [[]]) == nil)
        #expect(failure("200", length: nil, data: [[1], [2]]) == nil)
    }

    @Test func dataBeforeTheResponseAndFramesAfterEndStreamAreStreamErrors() {
        var harness = ConnectionHarness()
        let first = harness.get()
        #expect(
            harness.receive(harness.server.data(1, [1])) == [
                .streamFailed(first, .stream(first, .dataBeforeResponse, code: .protocolError))
            ])

        let second = harness.get(method: .post, endStream: false)  // stays half-closed (remote) after the response
        let events = harness.receive(
            harness.server.headers(3, [":status": "200"], endStream: true) + harness.server.data(3, [1]))
        #expect(events.last == .streamFailed(second, .stream(second, .frameAfterEndStream, code: .streamClosed)))
        #expect(harness.writtenPayloads == [.rstStream(.streamClosed)])
    }

    @Test func aFieldBlockSpansContinuationFrames() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let block = harness.server.block([":status": "200", "x-long": String(repeating: "v", count: 100)])
        let bytes =
            harness.server.frame(
                1,
                .headers(HTTP2HeadersFrame(fieldBlockFragment: Array(block[..<10]), endStream: true, endHeaders: false))
            )
            + harness.server.frame(1, .continuation(fieldBlockFragment: Array(block[10..<20]), endHeaders: false))
            + harness.server.frame(1, .continuation(fieldBlockFragment: Array(block[20...]), endHeaders: true))
        let events = harness.receive(bytes)
        #expect(events.count == 2 && events.last == .streamClosed(id))
    }

    @Test func anythingButContinuationInsideAFieldBlockIsAConnectionError() {
        for interloper in ["ping", "other stream", "unknown type"] {
            var harness = ConnectionHarness()
            _ = harness.get()
            _ = harness.get()
            let block = harness.server.block([":status": "200"])
            var bytes = harness.server.frame(
                1, .headers(HTTP2HeadersFrame(fieldBlockFragment: block, endStream: true, endHeaders: false)))
            switch interloper {
            case "ping": bytes += harness.server.frame(0, .ping(opaqueData: 0, ack: false))
            case "other stream":
                bytes += harness.server.frame(3, .continuation(fieldBlockFragment: [], endHeaders: true))
            default: bytes += harness.server.frame(1, .unknown(type: 0x42, length: 0))
            }
            let events = harness.receive(bytes)
            #expect(
                events == [
                    .connectionFailed(
                        .connection(.expectedContinuation, code: .protocolError),
                        openStreams: [HTTP2StreamID(1), HTTP2StreamID(3)])
                ], "\(interloper)")
        }
        var harness = ConnectionHarness()
        _ = harness.get()
        #expect(
            harness.receive(harness.server.frame(1, .continuation(fieldBlockFragment: [], endHeaders: true))).first?
                .protocolError?.kind == .unexpectedContinuation)
    }

    @Test func frameErrorsScopedToAStreamAreConnectionErrorsInsideAFieldBlockOrOnIdleStreams() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let open = harness.server.frame(
            1, .headers(HTTP2HeadersFrame(fieldBlockFragment: [0x88], endStream: true, endHeaders: false)))
        let shortPriority = rawFrame(type: 0x2, stream: 1, payload: [0, 0, 0, 0])
        #expect(
            harness.receive(open + shortPriority)
                == [.connectionFailed(.connection(.expectedContinuation, code: .protocolError), openStreams: [id])])

        harness = ConnectionHarness()
        let zeroOnIdle = rawFrame(type: 0x8, stream: 9, payload: be32(0))
        #expect(harness.receive(zeroOnIdle).first?.protocolError?.kind == .frameOnIdleStream)

        harness = ConnectionHarness()
        let second = harness.get()
        let zeroOnOpen = rawFrame(type: 0x8, stream: 1, payload: be32(0))
        #expect(
            harness.receive(zeroOnOpen) == [
                .streamFailed(second, .stream(second, .zeroWindowIncrement, code: .protocolError))
            ])
    }

    @Test func pingsAreAnsweredAndAcknowledgementsReported() {
        var harness = ConnectionHarness()
        #expect(harness.receive(harness.server.frame(0, .ping(opaqueData: 0xABCD, ack: false))).isEmpty)
        #expect(harness.writtenPayloads == [.ping(opaqueData: 0xABCD, ack: true)])
        harness.machine.sendPing(opaqueData: 7)
        harness.flush()
        #expect(harness.writtenPayloads == [.ping(opaqueData: 7, ack: false)])
        #expect(
            harness.receive(harness.server.frame(0, .ping(opaqueData: 7, ack: true))) == [
                .pingAcknowledged(opaqueData: 7)
            ])
    }

    @Test func goAwayClosesTheUnprocessedStreamsAndReportsThemSafeToReplay() {
        var harness = ConnectionHarness()
        let ids = [harness.get(), harness.get(), harness.get()]
        let events = harness.receive(
            harness.server.frame(0, .goAway(lastStreamID: ids[0], errorCode: .noError, debugData: [])))
        #expect(
            events == [
                .goAway(
                    HTTP2GoAway(
                        lastStreamID: ids[0], errorCode: .noError, debugData: [], unprocessedStreams: [ids[1], ids[2]]))
            ])
        #expect(throws: HTTP2RequestError.connectionGoingAway) {
            try harness.machine.openStream(
                HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/"), endStream: true)
        }
        #expect(!harness.machine.isFinished)
        // Frames for the unprocessed streams are ignored; the processed one completes.
        let rest = harness.receive(
            harness.server.headers(3, [":status": "200"], endStream: true)
                + harness.server.headers(1, [":status": "200"], endStream: true))
        #expect(rest.last == .streamClosed(ids[0]) && rest.count == 2)
        #expect(harness.machine.isFinished)
        let raised = harness.receive(
            harness.server.frame(0, .goAway(lastStreamID: ids[2], errorCode: .noError, debugData: [])))
        #expect(raised.first?.protocolError?.kind == .goAwayLastStreamIncreased)
    }

    @Test func serverResetsEndOneStreamAndLaterFramesForItKeepHPACKInStep() {
        var harness = ConnectionHarness()
        let first = harness.get()
        let second = harness.get()
        #expect(
            harness.receive(harness.server.frame(1, .rstStream(.refusedStream))) == [
                .streamReset(first, .refusedStream, responseComplete: false)
            ])
        // The server had already encoded a response for stream 1 that adds a table entry...
        let late = harness.server.headers(1, [":status": "200", "x-entry": "indexed"], endStream: true)
        #expect(harness.receive(late + harness.server.data(1, [1, 2, 3])).isEmpty)
        // ...which the next response refers to by index.
        let events = harness.receive(
            harness.server.headers(3, [":status": "200", "x-entry": "indexed"], endStream: true))
        #expect(
            events.first
                == .response(second, HTTP2ResponseHead(status: .ok, headers: ["x-entry": "indexed"]), endStream: true))
    }

    @Test func aResetAfterTheCompleteResponseOnlyStopsTheBody() {
        var harness = ConnectionHarness()
        let id = harness.get(method: .post, endStream: false)
        _ = harness.receive(harness.server.headers(1, [":status": "413"], endStream: true))
        #expect(
            harness.receive(harness.server.frame(1, .rstStream(.noError))) == [
                .streamReset(id, .noError, responseComplete: true)
            ])
    }

    @Test func theClientCancelsAStreamWithRstStreamAndIgnoresWhatFollows() {
        var harness = ConnectionHarness()
        let id = harness.get()
        _ = harness.receive(
            harness.server.headers(1, [":status": "200"]) + harness.server.data(1, Array(repeating: 1, count: 1000)))
        harness.machine.resetStream(id)
        harness.flush()
        #expect(harness.writtenPayloads == [.rstStream(.cancel)])
        #expect(harness.receive(harness.server.data(1, [1], endStream: true)).isEmpty)
        harness.machine.resetStream(id)
        #expect(!harness.machine.hasPendingOutput)
    }

    @Test func priorityIsToleratedAnywhereButOnItself() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let priority = HTTP2Priority(exclusive: false, dependency: HTTP2StreamID(0), weight: 1)
        #expect(
            harness.receive(harness.server.frame(1, .priority(priority)) + harness.server.frame(9, .priority(priority)))
                .isEmpty)
        let selfish = HTTP2Priority(exclusive: false, dependency: id, weight: 1)
        #expect(
            harness.receive(harness.server.frame(1, .priority(selfish))) == [
                .streamFailed(id, .stream(id, .streamDependsOnItself, code: .protocolError))
            ])
    }

    @Test func pushPromisesAndServerStreamsAndIdleStreamsAreConnectionErrors() {
        var harness = ConnectionHarness()
        _ = harness.get()
        #expect(
            harness.receive(
                harness.server.frame(
                    1, .pushPromise(promisedStreamID: HTTP2StreamID(2), fieldBlockFragment: [], endHeaders: true))
            ).first?.protocolError?.kind == .pushPromiseRefused)
        harness = ConnectionHarness()
        #expect(
            harness.receive(harness.server.headers(2, [":status": "200"])).first?.protocolError?.kind
                == .serverInitiatedStream)
        harness = ConnectionHarness()
        #expect(harness.receive(harness.server.data(3, [1])).first?.protocolError?.kind == .frameOnIdleStream)
        harness = ConnectionHarness()
        #expect(
            harness.receive(harness.server.frame(5, .windowUpdate(increment: 1))).first?.protocolError?.kind
                == .frameOnIdleStream)
        harness = ConnectionHarness()
        #expect(
            harness.receive(harness.server.frame(7, .rstStream(.cancel))).first?.protocolError?.kind
                == .frameOnIdleStream)
        harness = ConnectionHarness()
        #expect(
            harness.receive(harness.server.settings([HTTP2Setting(.enablePush, 1)])).first?.protocolError?.kind
                == .invalidSettingValue)
    }

    @Test func unknownFrameTypesAreIgnored() {
        var harness = ConnectionHarness()
        #expect(
            harness.receive(
                harness.server.frame(0, .unknown(type: 0xBB, length: 10))
                    + harness.server.frame(1, .unknown(type: 0x10, length: 1))
            ).isEmpty)
        #expect(!harness.machine.isFinished)
    }

    @Test func theTransportClosingEndsTheOpenStreams() {
        var harness = ConnectionHarness()
        let ids = [harness.get(), harness.get()]
        #expect(harness.machine.connectionClosed() == [.connectionClosed(openStreams: ids)])
        #expect(harness.machine.isFinished && harness.machine.connectionClosed().isEmpty)
        #expect(throws: HTTP2RequestError.connectionClosed) {
            try harness.machine.openStream(
                HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/"), endStream: true)
        }
    }

    @Test func aGracefulCloseSendsGoAwayAndLetsOpenStreamsFinish() {
        var harness = ConnectionHarness()
        let id = harness.get()
        harness.machine.closeGracefully()
        harness.flush()
        #expect(harness.writtenPayloads == [.goAway(lastStreamID: .connection, errorCode: .noError, debugData: [])])
        #expect(!harness.machine.isFinished)
        #expect(
            harness.receive(harness.server.headers(1, [":status": "200"], endStream: true)).last == .streamClosed(id))
        #expect(harness.machine.isFinished)
    }

    @Test func theServersTableSizeReachesTheEncoderAsASizeUpdate() {
        var harness = ConnectionHarness()
        _ = harness.receive(harness.server.settings([HTTP2Setting(.headerTableSize, 0)]))
        _ = harness.get()
        guard case .headers(let headers) = harness.written.first?.payload else { return #expect(Bool(false)) }
        #expect(headers.fieldBlockFragment.first == 0x20)
        #expect(harness.server.requestFields(harness.written).first?.first == HPACKHeaderField(":method", "GET"))
    }

    @Test func largeRequestBlocksAreSplitIntoContinuationFrames() {
        var harness = ConnectionHarness()
        let head = HTTP2RequestHead(
            method: .get, scheme: "https", authority: "a", path: "/",
            headers: ["x-big": String(repeating: "{", count: 40_000)])
        _ = try? harness.machine.openStream(head, endStream: true)
        harness.flush()
        #expect(harness.written.count == 3)
        #expect(harness.written.dropFirst().allSatisfy { if case .continuation = $0.payload { true } else { false } })
        #expect(harness.server.requestFields(harness.written).first?.last?.value.count == 40_000)
    }

    @Test func aRequestOverTheServersHeaderListLimitIsRefused() {
        var harness = ConnectionHarness(serverSettings: [HTTP2Setting(.maxHeaderListSize, 200)])
        let head = HTTP2RequestHead(
            method: .get, scheme: "https", authority: "a", path: "/", headers: ["x": String(repeating: "a", count: 100)]
        )
        #expect(throws: HTTP2RequestError.self) { try harness.machine.openStream(head, endStream: true) }
    }

    /// Requests refused part way through their fields (a bad value after fields the encoder
    /// already added to its table, a list over the server's limit found only at the end) leave
    /// nothing behind: no frame, no stream, and an HPACK state the server's decoder still
    /// follows, so the next request's fields decode to exactly what was sent.
    @Test func aRefusedRequestLeavesTheHPACKStateInStep() {
        var harness = ConnectionHarness(serverSettings: [HTTP2Setting(.maxHeaderListSize, 400)])
        func head(_ headers: HTTPHeaders) -> HTTP2RequestHead {
            HTTP2RequestHead(method: .get, scheme: "https", authority: "a", path: "/", headers: headers)
        }
        let refused: [HTTPHeaders] = [
            ["x-one": "1", "x-two": "2", "bad": "a\nb"],
            ["x-one": "1", "x-three": "3", "x-big": String(repeating: "b", count: 300)],
        ]
        for headers in refused {
            #expect(throws: HTTP2RequestError.self) { try harness.machine.openStream(head(headers), endStream: true) }
            #expect(!harness.machine.hasPendingOutput && harness.machine.openStreams.isEmpty)
        }
        for headers: HTTPHeaders in [["x-one": "1", "x-three": "3"], ["x-one": "1", "x-two": "2", "x-four": "4"]] {
            _ = must("the request is taken") { try harness.machine.openStream(head(headers), endStream: true) }
            harness.flush()
            let fields = harness.server.requestFields(harness.written).last ?? []
            #expect(fields.dropFirst(4).map(\.description) == headers.map { "\($0.name): \($0.value)" })
        }
    }
}
