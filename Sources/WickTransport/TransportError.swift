// Why a transport request failed, with whether the server may have acted on it.
package import WickHTTP1
package import WickTLS

/// Why `ConnectionPoolRunner.execute` failed. `indirect` (payloads boxed, the value one
/// reference): every exchange's completion carries a `Result` with this error type, and the
/// unboxed enum made every copy of that result go through value witnesses.
package indirect enum TransportError: Error, Sendable, CustomStringConvertible {
    /// A connection to the origin could not be made, and retrying would fail the same way
    /// (unknown host, TLS handshake or trust refused).
    case connectFailed(StreamChannelError)
    /// No connection became free before the pool-wait deadline; `lastConnectionFailure` is the
    /// origin's latest failed attempt when no attempt has succeeded since.
    case poolWaitTimeout(lastConnectionFailure: StreamChannelError?)
    /// The request's deadline passed, or nothing moved for the idle timeout, in `phase`: while
    /// it waited for a connection still being made (`.connect`), or on its connection.
    case timedOut(ExchangeTimeout)
    /// The caller cancelled the request (the Swift task was cancelled).
    case cancelled
    /// The runner was shut down.
    case shutdown
    /// The exchange failed on the connection. `requestMayHaveBeenProcessed` is false only when
    /// no request byte was written, so the server cannot have seen it.
    case requestFailed(HTTP1ConnectionError, requestMayHaveBeenProcessed: Bool)
    /// The response body passed `TransportSettings.maximumResponseBodyBytes`.
    case responseBodyTooLarge(limit: Int)
    /// The TLS context for https could not be built (`TransportClient`, on the first https
    /// request; `TransportPreparationError.tlsUnavailable` reports it there).
    case tlsUnavailable(TLSError)
    /// The request body's source failed (an upload's file or stream); the connection was closed.
    case requestBodyFailed(reason: String)

    /// What went wrong, for people.
    package var description: String {
        switch self {
        case .connectFailed(let error): "could not connect: \(error)"
        case .poolWaitTimeout(let last?): "no connection became available in time; the last attempt failed: \(last)"
        case .poolWaitTimeout(nil): "no connection became available in time"
        case .timedOut(let phase): "the request timed out \(phase)"
        case .cancelled: "the request was cancelled"
        case .shutdown: "the connection pool is shut down"
        case .requestFailed(let error, true):
            "\(error); the request may have been processed by the server"
        case .requestFailed(let error, false): "\(error); the server did not receive the request"
        case .responseBodyTooLarge(let limit): "the response body is larger than the limit of \(limit) bytes"
        case .tlsUnavailable(let error): "TLS is unavailable: \(error)"
        case .requestBodyFailed(let reason): "the request body could not be read: \(reason)"
        }
    }
}
