// Where a request was when it timed out: a new connection's phase, or a phase on its connection.
/// The phase of an exchange that ran out of time (`TransportError.timedOut`).
package enum ExchangeTimeout: Sendable, Equatable, CustomStringConvertible {
    /// The request's deadline passed while it waited for a new connection that was still in
    /// this phase of being made.
    case connect(ConnectPhase)
    /// The request's deadline passed before the whole request was written.
    case sendingRequest
    /// The deadline passed after the request was written, before a response byte.
    case waitingForResponse
    /// The deadline passed while the response was arriving.
    case receivingResponse
    /// No byte was read or written for the driver's idle timeout.
    case idle

    /// `while sending the request`...
    package var description: String {
        switch self {
        case .connect(let phase): phase.description
        case .sendingRequest: "while sending the request"
        case .waitingForResponse: "while waiting for the response"
        case .receivingResponse: "while receiving the response"
        case .idle: "with no byte sent or received for the idle timeout"
        }
    }
}
