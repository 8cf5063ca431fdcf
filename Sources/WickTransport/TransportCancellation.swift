// The handle a request keeps on its exchange: cancel it wherever it is, or wait for it inline.
import WickCore

/// The handle a request keeps while its exchange is on the transport; `cancel()` takes the
/// exchange out of the pool if it waits, or closes its connection if it runs.
package struct TransportCancellation: Sendable {
    let runner: ConnectionPoolRunner
    let handle: TransportExchange
    /// The hedged run `handle` is the first attempt of, when the request may be hedged.
    var hedged: HedgedExchange?

    /// Cancels the exchange (both attempts of a hedged one); it completes with
    /// `TransportError.cancelled`.
    package func cancel() {
        if let hedged { return hedged.cancel() }
        runner.cancel(handle)
    }

    /// The faults injected into the exchange so far (`TransportExchange.injectedFaults`); read
    /// on the runner's loop, where the exchange's completion runs.
    package var injectedFaults: [InjectedFault] { hedged?.injectedFaults ?? handle.injectedFaults }

    /// Waits on this thread, for up to `budget`, for the exchange to complete, taking its
    /// response from the socket as the loop would, when the loop sleeps (it then is not woken
    /// for it, and the caller awaiting the outcome does not sleep): for a caller about to await
    /// it. Does nothing when the loop is busy, the runner's `InlineWaitGate` says no (other
    /// exchanges run, or ran while a probe slept), or the exchange is not yet on a connection,
    /// streams its body or may be hedged (`EventLoop.waitInlineIfAsleep`).
    /// - Returns: `.waited` when this thread took the loop (the completion has then run here,
    ///   unless the budget ran out first); `.probing` when this caller is to sleep as usual and
    ///   then tell the probe (`InlineWaitProbe.end`); `.skipped` otherwise.
    @discardableResult
    package func waitInline(for budget: Duration) -> InlineWait {
        guard hedged == nil else { return .skipped }
        // The loop is not taken from its thread while other exchanges run (checked again there).
        let alone = runner.exchangesInFlight.load(ordering: .relaxed) == 1
        switch runner.inlineWaitGate.withLock({ $0.decide(alone: alone) }) {
        case .skip: return .skipped
        case .probe:
            return .probing(InlineWaitProbe(runner: runner, entered: runner.exchangesEntered.load(ordering: .relaxed)))
        case .wait: break
        }
        let exchange = handle
        let waited = runner.loop.waitInlineIfAsleep(
            until: .now() + budget, watching: { exchange.inlineWaitDescriptor() },
            ended: { exchange.inlineWaitEnded($0) })
        return waited ? .waited : .skipped
    }

    /// Tells the exchange its body sink takes bytes again.
    package func demandMore() {
        runner.demandMore(handle)
    }

    /// Stops the exchange's connection reading (the request was suspended), until
    /// `resumeReading()`; the connection stays open.
    package func pauseReading() {
        let exchange = handle
        runner.loop.execute { exchange.pauseReading() }
    }

    /// Lets the exchange's connection read again (the request was resumed).
    package func resumeReading() {
        let exchange = handle
        runner.loop.execute { exchange.resumeReading() }
    }
}

/// What `TransportCancellation.waitInline(for:)` did.
package enum InlineWait: Sendable {
    /// Nothing: the caller awaits as usual.
    case skipped
    /// Nothing yet: the caller awaits as usual, then tells the probe how it went.
    case probing(InlineWaitProbe)
    /// This thread took the loop and waited for the response.
    case waited
}
