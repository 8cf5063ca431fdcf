// A connection's one timer for its requests' deadline and idle checks.

import WickCore
import WickReactor

/// The one timer a connection driver keeps for its requests' deadline and idle checks, armed
/// for the earliest check due. It outlives requests: arming it for later than it is armed for
/// changes nothing (the driver looks again when it fires), so a keep-alive connection's next
/// request, or a stream opened after another, usually costs no timer operation at all (a timer
/// per request cost two to four allocations and two heap updates each). Use it on the
/// connection's loop only.
struct ConnectionWatchdog {
    private var scheduled: Scheduled?
    private var due: Deadline?

    /// Makes sure `fire` runs on `loop` by `due`: an armed timer due no later is kept, a later
    /// one is replaced.
    mutating func arm(at due: Deadline, on loop: EventLoop, _ fire: @escaping @Sendable () -> Void) {
        if let armed = self.due, armed <= due { return }
        scheduled?.cancel()
        self.due = due
        scheduled = loop.schedule(at: due, fire)
    }

    /// Forgets the timer that has just fired; the first thing its `fire` does.
    mutating func fired() {
        scheduled = nil
        due = nil
    }

    /// Cancels the timer, if armed.
    mutating func cancel() {
        scheduled?.cancel()
        fired()
    }
}
