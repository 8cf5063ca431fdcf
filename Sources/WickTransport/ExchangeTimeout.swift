// Where on its connection a request was when it timed out.
/// The phase of an exchange that ran out of time (`TransportError.timedOut`).
package enum ExchangeTimeout: Sendable, Equatable, CustomStringConvertible {
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
        case .sendingRequest: "while sending the request"
        case .waitingForResponse: "while waiting for the response"
        case .receivingResponse: "while receiving the response"
        case .idle: "with no byte sent or received for the idle timeout"
        }
    }
}
