// The base of every request: its state (initialized, resumed, cancelled, finished) and its run.
public import FoundationEssentials
import Synchronization

/// One request made by a `Session`: what it sends, its state, and cancellation. Subclasses
/// (`DataRequest`) add the ways to read the response.
///
/// A request runs once. It starts when its first response handler is added, or on `resume()`;
/// every handler added, before or after it finished, receives the same outcome.
///
/// `@unchecked Sendable`: the only mutable state is behind `mutableState`'s lock; the other
/// stored properties are immutable and Sendable.
public class Request: @unchecked Sendable {
    /// Where a request is in its life.
    public enum State: Sendable, Equatable {
        /// Created, not started.
        case initialized
        /// Running.
        case resumed
        /// `cancel()` was called; it finishes with `WickError.explicitlyCancelled`.
        case cancelled
        /// Finished: its outcome is known.
        case finished
    }

    /// How the transport part of a request ended.
    struct Outcome: Sendable {
        var request: HTTPRequest?
        var result: Result<TransportResponse, WickError>
    }

    private struct MutableState {
        var state = State.initialized
        var task: Task<Void, Never>?
        var outcome: Outcome?
        var waiters: [@Sendable (Outcome) -> Void] = []
        var isCancelRequested = false
    }

    /// An identifier, unique per request.
    public let id = UUID()
    /// The session that runs the request.
    public let session: Session
    /// The request as it is sent; nil when it could not be built (an invalid URL).
    public let request: HTTPRequest?
    /// Set when the request could not be built: it finishes with this error once started.
    private let buildFailure: WickError?
    private let mutableState = Mutex(MutableState())

    init(session: Session, request: HTTPRequest?, buildFailure: WickError?) {
        self.session = session
        self.request = request
        self.buildFailure = buildFailure
    }

    /// The current state.
    public var state: State { mutableState.withLock { $0.state } }

    /// Whether `cancel()` was called (or the task awaiting a `DataTask` was cancelled).
    public var isCancelled: Bool { mutableState.withLock { $0.isCancelRequested } }

    /// Starts the request if it has not started; does nothing otherwise.
    @discardableResult
    public func resume() -> Self {
        let failure: WickError? = mutableState.withLock { state in
            guard state.state == .initialized else { return nil }
            state.state = .resumed
            if let buildFailure { return buildFailure }
            guard let request else { preconditionFailure("Request: no request and no build failure") }
            state.task = Task { [self] in
                finish(Outcome(request: request, result: await session.perform(request)))
            }
            return nil
        }
        if let failure { finish(Outcome(request: request, result: .failure(failure))) }
        return self
    }

    /// Cancels the request: a waiting request leaves the pool, a running one closes its
    /// connection. It finishes with `WickError.explicitlyCancelled` unless it had finished.
    @discardableResult
    public func cancel() -> Self {
        let action: (task: Task<Void, Never>?, finishNow: Bool)? = mutableState.withLock { state in
            switch state.state {
            case .initialized:
                state.state = .cancelled
                state.isCancelRequested = true
                return (nil, true)
            case .resumed:
                state.state = .cancelled
                state.isCancelRequested = true
                return (state.task, state.task == nil)
            case .cancelled, .finished:
                return nil
            }
        }
        guard let action else { return self }
        action.task?.cancel()
        if action.finishNow { finish(Outcome(request: request, result: .failure(.explicitlyCancelled))) }
        return self
    }

    /// Calls `body` with the outcome once known (at once, on this thread, if it is), and
    /// starts the request.
    func whenFinished(_ body: @escaping @Sendable (Outcome) -> Void) {
        let known: Outcome? = mutableState.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.waiters.append(body)
            return nil
        }
        if let known { return body(known) }
        resume()
    }

    /// Records the outcome (the first one wins; a cancelled request's is always
    /// `explicitlyCancelled`) and hands it to every waiter.
    private func finish(_ outcome: Outcome) {
        let (waiters, final): ([@Sendable (Outcome) -> Void], Outcome) = mutableState.withLock { state in
            if let known = state.outcome { return ([], known) }
            var final = outcome
            if state.isCancelRequested { final.result = .failure(.explicitlyCancelled) }
            state.outcome = final
            state.state = .finished
            state.task = nil
            defer { state.waiters = [] }
            return (state.waiters, final)
        }
        for waiter in waiters { waiter(final) }
    }
}
