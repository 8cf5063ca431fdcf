// The client's own frames beyond the request head: trailers, padded and prioritised server
// HEADERS, larger server frame sizes, and SETTINGS acknowledgements that come unasked.
import Testing
import WickCore

@testable import WickHTTP2

@Suite struct HTTP2ConnectionSendingTests {
    @Test func requestTrailersEndTheClientsSideAndCloseADoneStream() throws {
        var harness = ConnectionHarness()
        let id = harness.get(method: .post, endStream: false)
        _ = harness.machine.sendBody([1, 2, 3][...], on: id, endStream: false)
        _ = harness.receive(harness.server.headers(1, [":status": "200"], endStream: true))
        let closed = try harness.machine.sendTrailers(["Grpc-Status": "0", "X-Sum": "abc"], on: id)
        harness.flush()
        #expect(closed)
        #expect(harness.machine.openStreams.isEmpty)
        guard case .headers(let trailers)? = harness.written.last?.payload else {
            Issue.record("no trailers HEADERS: \(harness.written)")
            return
        }
        #expect(trailers.endStream && trailers.endHeaders)
        #expect(
            harness.server.requestFields(harness.written).last == [
                HPACKHeaderField("grpc-status", "0"), HPACKHeaderField("x-sum", "abc"),
            ])
    }

    @Test func trailersWithBytesHTTP2CannotCarryAreRefusedAndNothingIsSent() {
        var harness = ConnectionHarness()
        let id = harness.get(method: .post, endStream: false)
        #expect(throws: HTTP2RequestError.invalidFieldName("Connection")) {
            try harness.machine.sendTrailers(["Connection": "close"], on: id)
        }
        #expect(throws: HTTP2RequestError.invalidFieldValue(name: "x")) {
            try harness.machine.sendTrailers(["x": "a\nb"], on: id)
        }
        #expect(!harness.machine.hasPendingOutput)
        #expect(harness.machine.openStreams == [id])
    }

    @Test func paddedAndPrioritisedResponseHeadersAreRead() {
        var harness = ConnectionHarness()
        let id = harness.get()
        let block = harness.server.block([":status": "200"])
        let headers = HTTP2HeadersFrame(
            fieldBlockFragment: block, endStream: true, endHeaders: true,
            priority: HTTP2Priority(exclusive: true, dependency: .connection, weight: 255), paddingLength: 200)
        let events = harness.receive(harness.server.frame(1, .headers(headers)))
        #expect(
            events == [.response(id, HTTP2ResponseHead(status: .ok, headers: []), endStream: true), .streamClosed(id)])
    }

    @Test func aHeadersFrameMakingItsStreamDependOnItselfFailsTheStreamAfterDecoding() {
        var harness = ConnectionHarness()
        let first = harness.get()
        let second = harness.get()
        let block = harness.server.block([":status": "200", "x-added": "to the table"])
        let selfish = HTTP2HeadersFrame(
            fieldBlockFragment: block, endStream: true, endHeaders: true,
            priority: HTTP2Priority(exclusive: false, dependency: first, weight: 1))
        #expect(
            harness.receive(harness.server.frame(1, .headers(selfish))) == [
                .streamFailed(first, .stream(first, .streamDependsOnItself, code: .protocolError))
            ])
        // The block was decoded: the next one may index what it added.
        let events = harness.receive(
            harness.server.headers(3, [":status": "200", "x-added": "to the table"], endStream: true))
        #expect(
            events.first
                == .response(
                    second, HTTP2ResponseHead(status: .ok, headers: ["x-added": "to the table"]), endStream: true))
    }

    @Test func bodiesUseTheServersLargerFrameSize() {
        var harness = ConnectionHarness(serverSettings: [
            HTTP2Setting(.maxFrameSize, 40_000), HTTP2Setting(.initialWindowSize, 100_000),
        ])
        _ = harness.receive(harness.server.frame(0, .windowUpdate(increment: 100_000)))
        let id = harness.get(method: .post, endStream: false)
        let sent = harness.machine.sendBody([UInt8](repeating: 9, count: 90_000)[...], on: id, endStream: true)
        harness.flush()
        #expect(sent.sent == 90_000)
        #expect(harness.written.map(\.payload.flowControlledLength) == [40_000, 40_000, 10_000])
    }

    @Test func anUnaskedSettingsAcknowledgementChangesNothing() {
        var harness = ConnectionHarness()
        let id = harness.get()
        #expect(harness.receive(harness.server.frame(0, .settingsAck)).isEmpty)
        #expect(
            harness.receive(harness.server.headers(1, [":status": "200"], endStream: true)).last == .streamClosed(id))
    }
}
