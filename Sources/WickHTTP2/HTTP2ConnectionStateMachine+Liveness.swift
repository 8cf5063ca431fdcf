// Rule 12 of the connection state machine: the SETTINGS ACK deadline and liveness PINGs, with
// time passed in.

public import WickCore

extension HTTP2ConnectionStateMachine {
    /// The clocks of rule 12, set by `start(at:)`.
    struct LivenessClocks: Sendable {
        /// When this client's SETTINGS went out; nil once the server acknowledged them.
        var settingsSentAt: Deadline?
        /// When bytes last arrived from the server (the start, before any).
        var lastReceivedAt: Deadline
        /// The payload of the liveness PING waiting for its ACK, and when it went out.
        var outstandingPing: (opaqueData: UInt64, sentAt: Deadline)?
        /// The payload of the next liveness PING: each one is distinct, so an ACK for an
        /// earlier or a user's PING is not taken for it.
        var nextPingData: UInt64 = 0x7769_636B_0000_0001
    }

    /// The preface and SETTINGS went out at `now`: the SETTINGS ACK deadline and the PING
    /// interval are counted from here (rule 12). Call once, before `checkLiveness(at:)`; a
    /// machine never started keeps no clocks and never times out.
    public mutating func start(at now: Deadline) {
        precondition(liveness == nil, "start(at:) called twice (phase \(phase))")
        liveness = LivenessClocks(settingsSentAt: localSettingsAcknowledged ? nil : now, lastReceivedAt: now)
    }

    /// When `checkLiveness(at:)` must next be called: the SETTINGS ACK deadline, the PING ACK
    /// deadline, or the end of the PING interval counted from the last bytes read, whichever
    /// comes first. nil when none applies (not started, closed, no PINGs configured and
    /// SETTINGS acknowledged). Reads only move this later, so a timer armed for it fires early
    /// at worst: call `checkLiveness` then and arm again.
    public var nextLivenessCheck: Deadline? {
        guard phase != .closed, let clocks = liveness else { return nil }
        var due = clocks.settingsSentAt.map { $0 + configuration.settingsAckTimeout }
        let pingDue: Deadline? =
            if let ping = clocks.outstandingPing {
                ping.sentAt + configuration.pingAckTimeout
            } else {
                configuration.pingInterval.map { clocks.lastReceivedAt + $0 }
            }
        if let pingDue { due = min(due ?? pingDue, pingDue) }
        return due
    }

    /// Checks the liveness deadlines at `now` (rule 12): a missed SETTINGS ACK is a connection
    /// error `settingsTimeout` (GOAWAY SETTINGS_TIMEOUT), a missed PING ACK one `pingTimeout`
    /// (GOAWAY NO_ERROR: the server broke no rule it can be told of); either fails every open
    /// stream. A PING is queued when nothing was read for `pingInterval`.
    ///
    /// - Returns: `connectionFailed` when a deadline passed, otherwise nothing.
    public mutating func checkLiveness(at now: Deadline) -> [HTTP2ConnectionEvent] {
        guard phase != .closed else { return [] }
        guard var clocks = liveness else { preconditionFailure("checkLiveness before start(at:) (phase \(phase))") }
        var events: [HTTP2ConnectionEvent] = []
        if let sent = clocks.settingsSentAt, now >= sent + configuration.settingsAckTimeout {
            fail(.connection(.settingsTimeout, code: .settingsTimeout), events: &events)
            return events
        }
        if let ping = clocks.outstandingPing {
            if now >= ping.sentAt + configuration.pingAckTimeout {
                fail(.connection(.pingTimeout, code: .noError), events: &events)
            }
            return events
        }
        if let interval = configuration.pingInterval, now >= clocks.lastReceivedAt + interval {
            write(.connection, .ping(opaqueData: clocks.nextPingData, ack: false))
            clocks.outstandingPing = (clocks.nextPingData, now)
            clocks.nextPingData &+= 1
            liveness = clocks
        }
        return events
    }

    /// Bytes arrived at `now`: the PING interval starts again.
    mutating func livenessBytesReceived(at now: Deadline) {
        guard let clocks = liveness, now > clocks.lastReceivedAt else { return }
        liveness?.lastReceivedAt = now
    }

    /// A PING ACK arrived: it answers the liveness PING when its payload matches.
    mutating func livenessPingAcknowledged(opaqueData: UInt64) {
        guard liveness?.outstandingPing?.opaqueData == opaqueData else { return }
        liveness?.outstandingPing = nil
    }

    /// The server acknowledged this client's SETTINGS: no deadline for them any more.
    mutating func livenessSettingsAcknowledged() {
        liveness?.settingsSentAt = nil
    }
}
