// Flow control on both levels (RFC 9113 §5.2, §6.9): the server stops when the consumer does,
// and the client sends only what the server's windows allow.
import Testing
import WickCore

@testable import WickHTTP2

@Suite struct HTTP2FlowControlTests {
    static func windowUpdates(_ frames: [HTTP2Frame]) -> [String] {
        frames.compactMap {
            if case .windowUpdate(let increment) = $0.payload { "\($0.streamID):\(increment)" } else { nil }
        }
    }

    /// A client whose stream window is the protocol's default, 65,535 bytes.
    static func harnessWithDefaultStreamWindow() -> ConnectionHarness {
        var configuration = HTTP2Configuration()
        configuration.initialStreamWindowSize = 65_535
        return ConnectionHarness(configuration)
    }

    @Test func aSlowReaderStopsTheServerAfterOneStreamWindow() {
        var harness = Self.harnessWithDefaultStreamWindow()
        let id = harness.get()
        var bytes = harness.server.headers(1, [":status": "200"])
        for _ in 0..<3 { bytes += harness.server.data(1, zeros: 16_384) }
        bytes += harness.server.data(1, Array(repeating: 0, count: 65_535 - 3 * 16_384))
        let events = harness.receive(bytes)
        #expect(events.count == 5 && events.allSatisfy { $0.protocolError == nil })
        #expect(Self.windowUpdates(harness.written).isEmpty, "nothing consumed, nothing reopened")
        // One byte past the window the consumer has not drained:
        let over = harness.receive(harness.server.data(1, [0]))
        #expect(over == [.streamFailed(id, .stream(id, .flowControlWindowExceeded, code: .flowControlError))])
        #expect(harness.writtenPayloads == [.rstStream(.flowControlError)])
    }

    @Test func consumptionReopensTheStreamWindowOnceHalfIsConsumed() {
        var harness = Self.harnessWithDefaultStreamWindow()
        let id = harness.get()
        _ = harness.receive(harness.server.headers(1, [":status": "200"]) + harness.server.data(1, zeros: 40_000))
        harness.machine.bodyConsumed(32_766, on: id)
        harness.flush()
        #expect(Self.windowUpdates(harness.written).isEmpty)
        harness.machine.bodyConsumed(1, on: id)
        harness.flush()
        #expect(Self.windowUpdates(harness.written) == ["1:32767"])
        // 65,535 - 40,000 + 32,767 more may come now, and not one byte more.
        let more = harness.receive(harness.server.data(1, zeros: 58_302))
        #expect(more.count == 4 && more.allSatisfy { $0.protocolError == nil })
        #expect(harness.receive(harness.server.data(1, [0])).first?.protocolError?.kind == .flowControlWindowExceeded)
    }

    @Test func theConnectionWindowBoundsAllStreamsTogether() {
        var configuration = HTTP2Configuration()
        configuration.connectionWindowSize = 100_000
        var harness = ConnectionHarness(configuration)
        let ids = [harness.get(), harness.get()]
        var bytes: [UInt8] = []
        for stream in [1, 3] {
            bytes += harness.server.headers(stream, [":status": "200"])
            bytes += harness.server.data(stream, zeros: 50_000)
        }
        #expect(harness.receive(bytes).allSatisfy { $0.protocolError == nil })
        let over = harness.receive(harness.server.data(1, [0]))
        #expect(
            over == [
                .connectionFailed(.connection(.flowControlWindowExceeded, code: .flowControlError), openStreams: ids)
            ])
    }

    @Test func connectionCreditFollowsConsumptionAcrossStreams() {
        var configuration = HTTP2Configuration()
        configuration.connectionWindowSize = 100_000
        var harness = ConnectionHarness(configuration)
        let ids = [harness.get(), harness.get()]
        var bytes: [UInt8] = []
        for stream in [1, 3] {
            bytes +=
                harness.server.headers(stream, [":status": "200"])
                + harness.server.data(stream, zeros: 30_000, endStream: true)
        }
        _ = harness.receive(bytes)
        harness.machine.bodyConsumed(30_000, on: ids[0])  // stream 1 has ended: connection credit only
        harness.flush()
        #expect(Self.windowUpdates(harness.written).isEmpty)
        harness.machine.bodyConsumed(20_000, on: ids[1])
        harness.flush()
        #expect(Self.windowUpdates(harness.written) == ["0:50000"])
    }

    @Test func paddingAndIgnoredDataAreCreditedAtOnce() {
        var configuration = HTTP2Configuration()
        configuration.connectionWindowSize = 65_535
        configuration.initialStreamWindowSize = 1000
        var harness = ConnectionHarness(configuration)
        _ = harness.get()
        _ = harness.receive(harness.server.headers(1, [":status": "200"]) + harness.server.data(1, [1], padding: 255))
        // 256 bytes of padding: the stream's credit waits for half its window (500).
        _ = harness.receive(harness.server.data(1, [1], padding: 255))
        #expect(Self.windowUpdates(harness.written) == ["1:512"])
        // DATA for a stream the client reset is credited to the connection at once.
        harness.machine.resetStream(HTTP2StreamID(1))
        harness.flush()
        #expect(harness.receive(harness.server.data(1, zeros: 33_000)).isEmpty)
        #expect(
            Self.windowUpdates(harness.written) == ["0:33282"],
            "512 padding + 2 unconsumed at the reset + two ignored frames of 16,384")
    }

    @Test func theClientsSmallerStreamWindowBindsOnlyOnceTheServerAcknowledgesIt() {
        var configuration = HTTP2Configuration()
        configuration.initialStreamWindowSize = 1000
        var harness = ConnectionHarness(configuration, handshake: false)
        _ = harness.receive(harness.server.settings())
        _ = harness.get()
        // Before the ACK the server may use the default 65,535.
        #expect(
            harness.receive(harness.server.headers(1, [":status": "200"]) + harness.server.data(1, zeros: 2000)).count
                == 2)
        _ = harness.receive(harness.server.frame(0, .settingsAck))
        // Now 1,000 - 2,000 = -1,000: any DATA is too much.
        #expect(harness.receive(harness.server.data(1, [0])).first?.protocolError?.kind == .flowControlWindowExceeded)
    }

    @Test func sendingStopsAtTheStreamWindowAndResumesOnWindowUpdate() {
        var harness = ConnectionHarness()
        let id = harness.get(method: .post, endStream: false)
        let body = [UInt8](repeating: 7, count: 70_000)
        let first = harness.machine.sendBody(body[...], on: id, endStream: true)
        harness.flush()
        #expect(first.sent == 65_535 && !first.streamClosed)
        #expect(harness.written.map { $0.payload.flowControlledLength } == [16_384, 16_384, 16_384, 16_383])
        #expect(harness.written.allSatisfy { if case .data(_, let end, _) = $0.payload { !end } else { false } })
        // The stream window opens; the connection window (65,535) is still spent.
        #expect(harness.receive(harness.server.frame(1, .windowUpdate(increment: 10_000))).isEmpty)
        #expect(
            harness.receive(harness.server.frame(0, .windowUpdate(increment: 10_000))) == [.sendWindowAvailable(id)])
        let rest = harness.machine.sendBody(body[65_535...], on: id, endStream: true)
        harness.flush()
        #expect(rest.sent == 4_465 && !rest.streamClosed)
        #expect(harness.writtenPayloads == [.data(bytes: body[65_535...], endStream: true, paddingLength: nil)])
        #expect(
            harness.receive(harness.server.headers(1, [":status": "201"], endStream: true)).last == .streamClosed(id))
    }

    @Test func anEmptyFinalBodyPartNeedsNoWindow() {
        var harness = ConnectionHarness(serverSettings: [HTTP2Setting(.initialWindowSize, 0)])
        let id = harness.get(method: .post, endStream: false)
        #expect(harness.machine.sendBody([1][...], on: id, endStream: false).sent == 0)
        let end = harness.machine.sendBody([][...], on: id, endStream: true)
        harness.flush()
        #expect(end.sent == 0 && harness.writtenPayloads == [.data(bytes: [], endStream: true, paddingLength: nil)])
    }

    @Test func settingsChangesMoveEveryOpenStreamsSendWindow() {
        var harness = ConnectionHarness()
        let id = harness.get(method: .post, endStream: false)
        _ = harness.receive(harness.server.settings([HTTP2Setting(.initialWindowSize, 0)]))
        #expect(harness.machine.sendBody([1, 2, 3][...], on: id, endStream: false).sent == 0)
        let events = harness.receive(harness.server.settings([HTTP2Setting(.initialWindowSize, 2)]))
        #expect(events.last == .sendWindowAvailable(id))
        #expect(harness.machine.sendBody([1, 2, 3][...], on: id, endStream: false).sent == 2)
    }

    @Test func windowsAboveTwoToTheThirtyOneAreFlowControlErrors() {
        var harness = ConnectionHarness()
        let id = harness.get(method: .post, endStream: false)
        let streamOverflow = harness.receive(harness.server.frame(1, .windowUpdate(increment: 0x7FFF_FFFF)))
        #expect(streamOverflow == [.streamFailed(id, .stream(id, .flowControlWindowOverflow, code: .flowControlError))])
        let atLimit = harness.receive(harness.server.frame(0, .windowUpdate(increment: 0x7FFF_FFFF - 65_535)))
        #expect(atLimit.isEmpty)
        #expect(
            harness.receive(harness.server.frame(0, .windowUpdate(increment: 1))).first?.protocolError
                == .connection(.flowControlWindowOverflow, code: .flowControlError))

        var settingsHarness = ConnectionHarness()
        _ = settingsHarness.get(method: .post, endStream: false)
        _ = settingsHarness.receive(settingsHarness.server.frame(1, .windowUpdate(increment: 0x7FFF_FFFF - 65_535)))
        let overflow = settingsHarness.receive(
            settingsHarness.server.settings([HTTP2Setting(.initialWindowSize, 65_536)]))
        #expect(overflow.first?.protocolError == .connection(.flowControlWindowOverflow, code: .flowControlError))
    }
}
