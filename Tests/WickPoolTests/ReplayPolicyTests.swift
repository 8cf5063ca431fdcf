// ReplayPolicy: when a request whose connection failed may be sent again on a fresh connection.
import Testing
import WickCore
import WickPool

@Suite("Safe replay")
struct ReplayPolicyTests {
    private func decide(
        _ method: HTTPMethod,
        key: Bool = false,
        written: Int = 100,
        received: Int = 0,
        reused: Bool = true,
        replayed: Bool = false
    ) -> ReplayPolicy.Decision {
        ReplayPolicy.decide(
            method: method,
            hasIdempotencyKey: key,
            requestBytesWritten: written,
            responseBytesReceived: received,
            connectionWasReused: reused,
            alreadyReplayed: replayed
        )
    }

    @Test(
        "An idempotent request on a reused connection that failed before any response byte is replayed",
        arguments: [HTTPMethod.get, .head, .options, .trace, .put, .delete]
    )
    func idempotentRequestsAreReplayed(method: HTTPMethod) {
        #expect(decide(method) == .replayOnFreshConnection)
    }

    @Test("A non-idempotent request is replayed only with an Idempotency-Key", arguments: [HTTPMethod.post, .patch])
    func nonIdempotentRequestsNeedAKey(method: HTTPMethod) {
        #expect(decide(method) == .fail(requestMayHaveBeenProcessed: true))
        #expect(decide(method, key: true) == .replayOnFreshConnection)
    }

    @Test("Any request of which no byte was written is replayed: the server saw nothing")
    func unwrittenRequestsAreReplayed() {
        #expect(decide(.post, written: 0) == .replayOnFreshConnection)
    }

    @Test("Once a response byte arrived, nothing is replayed and the request may have been processed")
    func startedResponsesAreNeverReplayed() {
        #expect(decide(.get, received: 1) == .fail(requestMayHaveBeenProcessed: true))
    }

    @Test("A fresh connection's failure is not the stale-connection race: no replay")
    func freshConnectionFailuresAreNotReplayed() {
        #expect(decide(.get, reused: false) == .fail(requestMayHaveBeenProcessed: true))
        #expect(decide(.post, written: 0, reused: false) == .fail(requestMayHaveBeenProcessed: false))
    }

    @Test("A request is replayed at most once")
    func replaysHappenOnce() {
        #expect(decide(.get, replayed: true) == .fail(requestMayHaveBeenProcessed: true))
        #expect(decide(.get, written: 0, replayed: true) == .fail(requestMayHaveBeenProcessed: false))
    }
}
