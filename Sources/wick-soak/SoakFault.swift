// The faults the soak injects through the fault server, and what a client may make of each.
import Wick

/// One misbehaviour of the fault server, played on the first arrival of a request (a replay of
/// the same request gets a normal answer, so a safe replay can succeed).
enum SoakFault: String, CaseIterable, Sendable {
    /// The server reads the request and resets the connection without a byte of response.
    case resetBeforeResponse = "reset-before-response"
    /// The server sends the head and half the body, then resets.
    case resetMidResponse = "reset-mid-response"
    /// The server sends the head and half the body, then closes (FIN): a truncated body.
    case truncatedBody = "truncated-body"
    /// The server sends the head and half the body, then says nothing past the idle timeout.
    case stallPastIdleTimeout = "stall-past-idle-timeout"
    /// The server answers with bytes that are not an HTTP/1.1 response head.
    case garbageHead = "garbage-head"
    /// The server sends a small body a few bytes at a time, each gap under the idle timeout.
    case slowDrip = "slow-drip"
    /// The server answers in full, keep-alive, then closes the idle connection at once.
    case idleClose = "idle-close"

    /// Whether the request still succeeds when it meets this fault.
    var isBenign: Bool { self == .slowDrip || self == .idleClose }

    /// Whether `error` is what a client must report for this fault: the specific failure, never
    /// a generic one.
    func accepts(_ error: WickError) -> Bool {
        switch (self, error) {
        case (.resetBeforeResponse, .sessionTaskFailed(.connectionLost(let loss))):
            [.reset, .closedBeforeResponse, .writeFailed].contains(loss.cause)
        case (.resetMidResponse, .sessionTaskFailed(.connectionLost(let loss))):
            [.reset, .closedDuringResponse, .closedBeforeResponse].contains(loss.cause)
        case (.truncatedBody, .sessionTaskFailed(.connectionLost(let loss))): loss.cause == .closedDuringResponse
        case (.stallPastIdleTimeout, .sessionTaskFailed(.timedOut(.idleTransfer, _))): true
        case (.garbageHead, .sessionTaskFailed(.connectionLost(let loss))): loss.cause == .invalidResponse
        default: false
        }
    }
}
