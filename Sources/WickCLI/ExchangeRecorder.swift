// Every exchange of each transfer as the session's events report them (redirect hops and
// retries included), for `-i`, `-v` and `-w`; transfers may run at once (`-Z`).
import Dispatch
import FoundationEssentials
import Synchronization
import Wick

/// Records, per request, each exchange's request, connection, trust evaluation and response, in
/// order, and the request's metrics, and says when the request has finished (its last event).
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

    /// One request's record so far, and who waits for its end.
    private struct Entry {
        var record = Record()
        var finished = false
        var waiters: [CheckedContinuation<Record, Never>] = []
    }

    /// The events arrive here, in order.
    let queue = DispatchQueue(label: "wick.cli.exchanges")
    /// Each request's entry by its id, from its first event until `finishedRecord(of:)` took it.
    private let entries = Mutex([UUID: Entry]())

    /// No records.
    init() {}

    /// Changes the entry of `request`, making it on its first event.
    private func change<Result>(_ request: Request, _ body: (inout Entry) -> Result) -> Result {
        entries.withLock { body(&$0[request.id, default: Entry()]) }
    }

    /// Starts a new exchange.
    func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        change(request) { $0.record.exchanges.append(Exchange(request: httpRequest)) }
    }

    /// Notes the trust evaluation of the current exchange's new connection.
    func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        change(request) { $0.record.exchanges.mutateLast { $0.trust = evaluation } }
    }

    /// Notes the current exchange's connection.
    func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        change(request) { $0.record.exchanges.mutateLast { $0.connection = connection } }
    }

    /// Notes the current exchange's response head.
    func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        change(request) { $0.record.exchanges.mutateLast { $0.response = response } }
    }

    /// Keeps the request's metrics as they grow.
    func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        change(request) { $0.record.metrics = metrics }
    }

    /// The last event: hands the record to whoever waits.
    func requestDidFinish(_ request: Request) {
        let (record, waiters) = entries.withLock { entries in
            var entry = entries[request.id, default: Entry()]
            entry.finished = true
            // Whoever waits takes the record now; else `finishedRecord(of:)` takes it later.
            entries[request.id] = entry.waiters.isEmpty ? entry : nil
            return (entry.record, entry.waiters)
        }
        for waiter in waiters { waiter.resume(returning: record) }
    }

    /// The exchanges of `request`'s events sent so far: waits until the queue has delivered the
    /// events already on it (a response head is on it before its body reaches the reader).
    func exchangesSoFar(of request: Request) -> [Exchange] {
        queue.sync {}
        return entries.withLock { $0[request.id]?.record.exchanges ?? [] }
    }

    /// The whole record of `request`, once it has finished; its entry is then forgotten.
    func finishedRecord(of request: Request) async -> Record {
        await withCheckedContinuation { continuation in
            let ready: Record? = entries.withLock { entries in
                guard let entry = entries[request.id], entry.finished else {
                    entries[request.id, default: Entry()].waiters.append(continuation)
                    return nil
                }
                entries[request.id] = nil
                return entry.record
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
