// Every exchange of one transfer as the session's events report it (redirect hops and retries
// included), for `-i`, `-v` and `-w`.
import Dispatch
import Synchronization
import Wick

/// Records each exchange's request, connection, trust evaluation and response, in order, and
/// the request's metrics, and says when the request has finished (its last event).
final class ExchangeRecorder: EventMonitor {
    /// One request sent and what came of it.
    struct Exchange: Sendable {
        /// The request as sent (the session's fields merged in).
        var request: HTTPRequest
        /// The trust evaluation of a new TLS connection.
        var trust: ServerTrustEvaluation?
        /// The connection that carried it.
        var connection: ConnectionInfo?
        /// The response head, if one came.
        var response: HTTPResponse?
    }

    /// What a finished request leaves: every exchange, and the metrics of the last one gathered.
    struct Record: Sendable {
        /// Every exchange, in order.
        var exchanges: [Exchange] = []
        /// The request's metrics, if an exchange completed.
        var metrics: RequestMetrics?
    }

    /// The record so far, and who waits for the end.
    private struct State {
        var record = Record()
        var finished = false
        var waiters: [CheckedContinuation<Record, Never>] = []
    }

    /// The events arrive here, in order.
    let queue = DispatchQueue(label: "wick.cli.exchanges")
    private let state = Mutex(State())

    /// An empty record.
    init() {}

    /// Forgets the last request's record, before the next one starts (requests run one at a
    /// time, and the last one's `requestDidFinish` has been delivered).
    func reset() {
        state.withLock { $0 = State() }
    }

    /// Starts a new exchange.
    func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        state.withLock { $0.record.exchanges.append(Exchange(request: httpRequest)) }
    }

    /// Notes the trust evaluation of the current exchange's new connection.
    func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        state.withLock { $0.record.exchanges.mutateLast { $0.trust = evaluation } }
    }

    /// Notes the current exchange's connection.
    func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        state.withLock { $0.record.exchanges.mutateLast { $0.connection = connection } }
    }

    /// Notes the current exchange's response head.
    func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        state.withLock { $0.record.exchanges.mutateLast { $0.response = response } }
    }

    /// Keeps the request's metrics as they grow.
    func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        state.withLock { $0.record.metrics = metrics }
    }

    /// The last event: hands the record to whoever waits.
    func requestDidFinish(_ request: Request) {
        let (record, waiters) = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return (state.record, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: record) }
    }

    /// The exchanges of every event sent so far: waits until the queue has delivered the
    /// events already on it (a response head is on it before its body reaches the reader).
    func exchangesSoFar() -> [Exchange] {
        queue.sync {}
        return state.withLock { $0.record.exchanges }
    }

    /// The whole record, once the request has finished.
    func finishedRecord() async -> Record {
        await withCheckedContinuation { continuation in
            let ready: Record? = state.withLock { state in
                guard state.finished else {
                    state.waiters.append(continuation)
                    return nil
                }
                return state.record
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

extension Array {
    /// Changes the last element, if there is one.
    fileprivate mutating func mutateLast(_ change: (inout Element) -> Void) {
        guard !isEmpty else { return }
        change(&self[count - 1])
    }
}
