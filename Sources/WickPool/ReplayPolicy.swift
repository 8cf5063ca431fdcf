// Whether a request that failed on a connection may be sent again on a fresh one.
public import WickCore

/// Decides whether a request whose connection failed may be replayed on a fresh connection.
///
/// A reused connection can be closed by the server at any moment, and the client learns it only
/// when it writes or reads: the classic stale keep-alive race. The request then usually never
/// reached the server, and replaying it once on a fresh connection hides the race from the user.
/// It is safe when the server cannot have acted on the request:
///
/// - no response byte arrived (once the server answers, it has acted; the failure is the user's
///   to see), and
/// - the connection was reused (a fresh connection that fails is not the stale-connection race;
///   the runner's own connect errors and the user's retry policy deal with it), and
/// - the request was not replayed already (one replay, never a loop), and
/// - either no request byte was written (the server saw nothing), or the method is idempotent
///   (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, TRACE, PUT, DELETE, QUERY) or the request carries an
///   `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header), so doing it twice is
///   the same as doing it once.
///
/// Otherwise the request fails, and the decision says whether the server may have processed it:
/// a caller must not assume a failed POST did nothing.
public enum ReplayPolicy {
    /// The outcome for one failed request.
    public enum Decision: Hashable, Sendable {
        /// Send the request again, once, on a fresh connection (`requestArrived(isReplay: true)`).
        case replayOnFreshConnection
        /// Fail the request. `requestMayHaveBeenProcessed` is false only when no request byte was
        /// written, so the server cannot have seen it.
        case fail(requestMayHaveBeenProcessed: Bool)
    }

    /// Decides whether a request whose connection failed before or during its response may be
    /// replayed. Pure: the same facts always give the same decision.
    ///
    /// - Parameters:
    ///   - method: the request's method.
    ///   - hasIdempotencyKey: whether the request carries an `Idempotency-Key` header.
    ///   - requestBytesWritten: how many bytes of the request reached the socket.
    ///   - responseBytesReceived: how many bytes of the response arrived.
    ///   - connectionWasReused: whether the connection had carried an earlier request.
    ///   - alreadyReplayed: whether this attempt was itself a replay.
    public static func decide(
        method: HTTPMethod,
        hasIdempotencyKey: Bool,
        requestBytesWritten: Int,
        responseBytesReceived: Int,
        connectionWasReused: Bool,
        alreadyReplayed: Bool
    ) -> Decision {
        let mayHaveBeenProcessed = requestBytesWritten > 0
        guard responseBytesReceived == 0, connectionWasReused, !alreadyReplayed else {
            return .fail(requestMayHaveBeenProcessed: mayHaveBeenProcessed)
        }
        if !mayHaveBeenProcessed || method.isIdempotent || hasIdempotencyKey {
            return .replayOnFreshConnection
        }
        return .fail(requestMayHaveBeenProcessed: true)
    }
}
