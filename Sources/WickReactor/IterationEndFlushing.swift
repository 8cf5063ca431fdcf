// What a loop flushes at the end of an iteration, so the writes of one iteration leave together.

/// Output gathered during a loop iteration and sent at its end, after the iteration's events,
/// timers and tasks (`EventLoop.flushAtEndOfIteration`): a socket `Channel`'s queued bytes (one
/// gathered `sendmsg`), a TLS channel's plaintext (one encryption, so one record where it fits).
///
/// The loop calls `flushAtIterationEnd()` once per request, on its thread, acting as the loop
/// (or a borrower does, `EventLoop.runIfAsleep`). A flush may ask for another (a TLS channel's
/// records queue on its socket); that one runs in the same pass, before the loop waits.
package protocol IterationEndFlushing: AnyObject {
    /// Sends what was gathered since the request.
    func flushAtIterationEnd()
}
