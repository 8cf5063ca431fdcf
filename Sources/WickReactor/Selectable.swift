// What the event loop calls when a registered descriptor becomes ready.
import CWickSystem

/// An object that owns a registered descriptor and reacts to its readiness. Called only on the
/// loop's thread.
protocol Selectable: AnyObject {
    /// The descriptor is ready: `events` is the epoll event mask (`Epoll.readable`, ...).
    func readinessChanged(_ events: UInt32)
    /// The loop is shutting down: fail pending work, deregister and close the descriptor.
    func loopIsShuttingDown()
}

/// The epoll event bits WickReactor uses, as plain `UInt32`.
enum Epoll {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let readHangup = EPOLLRDHUP.rawValue
    static let hangup = EPOLLHUP.rawValue
    static let error = EPOLLERR.rawValue
    /// Edge-triggered: reported once per change, not while the condition lasts.
    static let edgeTriggered = EPOLLET.rawValue
}
