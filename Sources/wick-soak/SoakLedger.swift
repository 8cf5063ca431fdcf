// Every request's outcome, counted once: right answers, the failures faults call for, and the rest.
import Foundation
import Synchronization
import Wick

/// Accounts for each request exactly once, and sorts its outcome.
///
/// Rules: a success must have an accepted status, echo the request's id, and carry the expected
/// body byte for byte; a faulted request succeeds only if its fault is benign or it was
/// replayed (idempotent, and the server saw it twice); a failure must be the one its fault calls
/// for, or a lost connection the server never read the request on (a request that raced a
/// server closing an idle connection). Everything else is unexpected.
final class SoakLedger: Sendable {
    /// How the outcomes fell.
    struct Counts: Sendable {
        var issued = 0
        var completed = 0
        var succeeded = 0
        /// Successes after a replay, by the fault the first attempt met.
        var replayedByFault: [SoakFault: Int] = [:]
        /// Successes after a replay, whatever the fault.
        var replayedAfterFault: Int { replayedByFault.values.reduce(0, +) }
        var faultsMet: [SoakFault: Int] = [:]
        var expectedFailures: [SoakFault: Int] = [:]
        var idleCloseRaces = 0
        var unexpected = 0
        /// Unexpected outcomes by server and kind (`nginx http: timed out ...`).
        var unexpectedByKind: [String: Int] = [:]
        var completedTwice = 0
        /// The first few unexpected outcomes, described.
        var examples: [String] = []
    }

    /// Per request index: 0 not done, 1 done, 2 done as a success from nginx. Made whole up
    /// front, so accounting adds no memory during the run.
    private let state: Mutex<(counts: Counts, done: [UInt8])>

    init(requests: Int) {
        state = Mutex((Counts(), [UInt8](repeating: 0, count: requests)))
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// The indices of requests nginx answered successfully, to find in its access log.
    var nginxSuccesses: [Int] {
        state.withLock { state in state.done.indices.filter { state.done[$0] == 2 } }
    }

    /// The index of the next request to send, counted as issued; nil once every request was.
    func issueNext() -> Int? {
        state.withLock { state in
            guard state.counts.issued < state.done.count else { return nil }
            state.counts.issued += 1
            return state.counts.issued - 1
        }
    }

    /// `request` ended with `result`; `timesSeen` is how often its server saw its id.
    func record(
        _ request: SoakCase, index: Int, response: HTTPResponse?, result: Result<Data, WickError>, timesSeen: Int
    ) {
        let verdict = Self.verdict(request, response: response, result: result, timesSeen: timesSeen)
        state.withLock { state in
            if state.done[index] != 0 {
                state.counts.completedTwice += 1
                return
            }
            let fromNginx = request.server != .fault
            state.done[index] = if case .success = verdict, fromNginx { 2 } else { 1 }
            state.counts.completed += 1
            if let fault = request.fault { state.counts.faultsMet[fault, default: 0] += 1 }
            switch verdict {
            case .success: state.counts.succeeded += 1
            case .replayed(let fault): state.counts.replayedByFault[fault, default: 0] += 1
            case .expected(let fault): state.counts.expectedFailures[fault, default: 0] += 1
            case .idleCloseRace: state.counts.idleCloseRaces += 1
            case .unexpected(let why):
                state.counts.unexpected += 1
                state.counts.unexpectedByKind["\(request.server.rawValue): \(why)", default: 0] += 1
                if state.counts.examples.count < 20 {
                    state.counts.examples.append("\(request.label) [\(request.id)]: \(why)")
                }
            }
        }
    }

    private enum Verdict {
        case success, replayed(SoakFault), expected(SoakFault), idleCloseRace, unexpected(String)
    }

    private static func verdict(
        _ request: SoakCase, response: HTTPResponse?, result: Result<Data, WickError>, timesSeen: Int
    ) -> Verdict {
        switch result {
        case .success(let body):
            guard let response, request.statuses.contains(response.statusCode) else {
                return .unexpected("status \(response.map { "\($0.statusCode)" } ?? "none")")
            }
            guard response.headers["X-Request-Id"] == request.id else {
                return .unexpected("the response carries id \(response.headers["X-Request-Id"] ?? "none")")
            }
            guard request.expectedBody.matches(body) else {
                return .unexpected("a body of \(body.count) bytes that does not match")
            }
            guard let fault = request.fault, !fault.isBenign else { return .success }
            return request.isIdempotent && timesSeen >= 2
                ? .replayed(fault) : .unexpected("succeeded through \(fault.rawValue), seen \(timesSeen) times")
        case .failure(let error):
            if let fault = request.fault, fault.accepts(error) { return .expected(fault) }
            if timesSeen == 0, case .sessionTaskFailed(.connectionLost(let loss)) = error,
                [.closedBeforeResponse, .reset, .writeFailed].contains(loss.cause)
            {
                return .idleCloseRace
            }
            return .unexpected("\(error)")
        }
    }
}
