// Every exchange of one transfer as the session's events report it (redirect hops and retries
// included), for `-i`, `-v` and `-w`.
import Dispatch
import Synchronization
import Wick

/// Records each exchange's request, connection, trust evaluation and response, in order, and
/// says when the request's response has been serialized (its last event).
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

    /// The exchanges so far, and who waits for the end.
    private struct State {
        var exchanges: [Exchange] = []
        var finished = false
        var waiters: [CheckedContinuation<[Exchange], Never>] = []
    }

    /// The events arrive here, in order.
    let queue = DispatchQueue(label: "wick.cli.exchanges")
    private let state = Mutex(State())

    /// An empty record.
    init() {}

    /// Starts a new exchange.
    func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        state.withLock { $0.exchanges.append(Exchange(request: httpRequest)) }
    }

    /// Notes the trust evaluation of the current exchange's new connection.
    func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        state.withLock { $0.exchanges.mutateLast { $0.trust = evaluation } }
    }

    /// Notes the current exchange's connection.
    func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        state.withLock { $0.exchanges.mutateLast { $0.connection = connection } }
    }

    /// Notes the current exchange's response head.
    func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        state.withLock { $0.exchanges.mutateLast { $0.response = response } }
    }

    /// The last event: hands the record to whoever waits.
    func request<Value: Sendable>(_ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>) {
        let (exchanges, waiters) = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return (state.exchanges, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: exchanges) }
    }

    /// Every exchange, once the request's response has been serialized.
    func finishedExchanges() async -> [Exchange] {
        await withCheckedContinuation { continuation in
            let ready: [Exchange]? = state.withLock { state in
                guard state.finished else {
                    state.waiters.append(continuation)
                    return nil
                }
                return state.exchanges
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
