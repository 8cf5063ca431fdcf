// Rule 12 of the connection state machine with explicit time: the SETTINGS ACK deadline
// (RFC 9113 §6.5.3), liveness PINGs after silence, and the PING ACK deadline, each at N and N + 1.
import Testing
import WickCore

@testable import WickHTTP2

@Suite struct HTTP2LivenessTests {
    static let start = Deadline(uptimeNanoseconds: 1_000_000_000)

    /// A started machine; the server's SETTINGS and (when `acknowledge`) its ACK arrive at the start.
    static func started(
        pingInterval: Duration? = .seconds(5), pingAckTimeout: Duration = .seconds(2),
        settingsAckTimeout: Duration = .seconds(10), acknowledge: Bool = true
    ) -> ConnectionHarness {
        var configuration = HTTP2Configuration()
        configuration.pingInterval = pingInterval
        configuration.pingAckTimeout = pingAckTimeout
        configuration.settingsAckTimeout = settingsAckTimeout
        var harness = ConnectionHarness(configuration, handshake: false)
        harness.now = start
        harness.machine.start(at: start)
        let ack = acknowledge ? harness.server.frame(0, .settingsAck) : []
        _ = harness.receive(harness.server.settings() + ack)
        return harness
    }

    /// Checks liveness at `now`; the client's output goes to `written`.
    static func check(_ harness: inout ConnectionHarness, at now: Deadline) -> [HTTP2ConnectionEvent] {
        harness.now = now
        let events = harness.machine.checkLiveness(at: now)
        harness.flush()
        return events
    }

    /// The liveness PING's payload among the frames written, if one was.
    static func pingData(_ harness: ConnectionHarness) -> UInt64? {
        for case .ping(opaqueData: let data, ack: false) in harness.writtenPayloads { return data }
        return nil
    }

    @Test func settingsNotAcknowledgedInTimeAreASettingsTimeoutThatFailsTheOpenStreams() {
        var harness = Self.started(pingInterval: nil, acknowledge: false)
        let id = harness.get()
        let due = Self.start + .seconds(10)
        #expect(harness.machine.nextLivenessCheck == due)
        #expect(Self.check(&harness, at: due + .nanoseconds(-1)).isEmpty)
        #expect(harness.written.isEmpty)
        let events = Self.check(&harness, at: due)
        #expect(events == [.connectionFailed(.connection(.settingsTimeout, code: .settingsTimeout), openStreams: [id])])
        #expect(
            harness.writtenPayloads == [
                .goAway(
                    lastStreamID: .connection, errorCode: .settingsTimeout, debugData: Array("settingsTimeout".utf8))
            ])
        #expect(harness.machine.isFinished && harness.machine.nextLivenessCheck == nil)
        #expect(events.first?.protocolError?.isLivenessFailure == true)
    }

    @Test func settingsAcknowledgedJustBeforeTheDeadlineEndIt() {
        var harness = Self.started(pingInterval: nil, acknowledge: false)
        harness.now = Self.start + .seconds(10) + .nanoseconds(-1)
        _ = harness.receive(harness.server.frame(0, .settingsAck))
        #expect(harness.machine.nextLivenessCheck == nil)
        #expect(Self.check(&harness, at: Self.start + .seconds(60)).isEmpty)
        #expect(harness.written.isEmpty)
    }

    @Test func aPingGoesOutAfterTheIntervalOfSilenceAndItsAckMustComeInTime() {
        var harness = Self.started()
        let pingDue = Self.start + .seconds(5)
        #expect(harness.machine.nextLivenessCheck == pingDue)
        #expect(Self.check(&harness, at: pingDue + .nanoseconds(-1)).isEmpty)
        #expect(harness.written.isEmpty)
        #expect(Self.check(&harness, at: pingDue).isEmpty)
        #expect(Self.pingData(harness) != nil && harness.written.count == 1)
        let ackDue = pingDue + .seconds(2)
        #expect(harness.machine.nextLivenessCheck == ackDue)
        #expect(Self.check(&harness, at: ackDue + .nanoseconds(-1)).isEmpty)
        #expect(harness.written.isEmpty, "one PING at a time")
        let events = Self.check(&harness, at: ackDue)
        #expect(events == [.connectionFailed(.connection(.pingTimeout, code: .noError), openStreams: [])])
        #expect(
            harness.writtenPayloads == [
                .goAway(lastStreamID: .connection, errorCode: .noError, debugData: Array("pingTimeout".utf8))
            ])
        #expect(harness.machine.isFinished)
    }

    @Test func theMatchingAckAnswersThePingAndTheIntervalStartsAgain() throws {
        var harness = Self.started()
        _ = Self.check(&harness, at: Self.start + .seconds(5))
        let data = try #require(Self.pingData(harness))
        // Other bytes, and an ACK of another PING, do not answer it.
        harness.now = Self.start + .seconds(6)
        let events = harness.receive(
            harness.server.frame(0, .ping(opaqueData: data &+ 99, ack: true)) + harness.server.settings())
        #expect(events.contains(.pingAcknowledged(opaqueData: data &+ 99)))
        #expect(harness.machine.nextLivenessCheck == Self.start + .seconds(7))
        harness.now = Self.start + .seconds(6) + .milliseconds(500)
        #expect(
            harness.receive(harness.server.frame(0, .ping(opaqueData: data, ack: true))) == [
                .pingAcknowledged(opaqueData: data)
            ])
        let next = Self.start + .seconds(11) + .milliseconds(500)
        #expect(harness.machine.nextLivenessCheck == next)
        #expect(Self.check(&harness, at: Self.start + .seconds(7)).isEmpty)
        #expect(Self.check(&harness, at: next).isEmpty)
        let second = try #require(Self.pingData(harness))
        #expect(second != data, "each liveness PING carries its own payload")
    }

    @Test func bytesFromTheServerPostponeThePing() {
        var harness = Self.started()
        let id = harness.get()
        harness.now = Self.start + .seconds(4)
        _ = harness.receive(harness.server.headers(Int(id.rawValue), [":status": "200"]))
        #expect(harness.machine.nextLivenessCheck == Self.start + .seconds(9))
        #expect(Self.check(&harness, at: Self.start + .seconds(5)).isEmpty)
        #expect(harness.written.isEmpty, "the timer fired early: no PING")
        #expect(Self.check(&harness, at: Self.start + .seconds(9)).isEmpty)
        #expect(Self.pingData(harness) != nil)
    }

    @Test func aPingTimeoutFailsEveryOpenStream() {
        var harness = Self.started()
        let first = harness.get()
        let second = harness.get()
        _ = Self.check(&harness, at: Self.start + .seconds(5))
        let events = Self.check(&harness, at: Self.start + .seconds(7))
        #expect(
            events == [.connectionFailed(.connection(.pingTimeout, code: .noError), openStreams: [first, second])])
        #expect(harness.machine.availableStreamCapacity == 0)
    }

    @Test func withoutAnIntervalNoPingIsSentAndAMachineNeverStartedHasNoClock() {
        var harness = Self.started(pingInterval: nil)
        #expect(harness.machine.nextLivenessCheck == nil)
        #expect(Self.check(&harness, at: Self.start + .seconds(3600)).isEmpty)
        #expect(harness.written.isEmpty)
        let unstarted = ConnectionHarness()
        #expect(unstarted.machine.nextLivenessCheck == nil)
    }
}
