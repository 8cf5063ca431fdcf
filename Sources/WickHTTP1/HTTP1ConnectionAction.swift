// What the HTTP/1.1 connection state machine asks its driver to do, and the values it hands over.

/// One thing the connection driver must do, returned by every input of
/// `HTTP1ConnectionStateMachine`.
///
/// The driver performs it at once, in one exhaustive `switch`, then reports what happened as
/// further inputs. Where one event needs several effects, the case carries them all and names the
/// order the driver applies them in; no input returns a list.
public enum HTTP1ConnectionAction: Sendable {
    /// Nothing to do.
    case none

    /// Write the request head, then: if `startBody`, start the request body producer (it offers
    /// parts with `requestBodyPartAvailable`); if `scheduleContinueTimer`, schedule the
    /// 100-continue timer (its duration is the driver's setting) and report its expiry with
    /// `continueTimerFired()`. Both are false for a request without body, and while the channel
    /// is not writable (the producer starts when it becomes writable).
    case writeRequestHead(ArraySlice<UInt8>, startBody: Bool, scheduleContinueTimer: Bool)

    /// Write `before`, then the body part just offered, then `after` (the chunk framing; both
    /// empty for a `Content-Length` body). The slices are valid until the next input.
    case writeRequestBodyPart(before: ArraySlice<UInt8>, after: ArraySlice<UInt8>)

    /// Write the end of the request body (the last chunk and trailers; empty for a
    /// `Content-Length` body). The request has now been handed over entirely.
    case writeRequestEnd(ArraySlice<UInt8>)

    /// Start (or resume) the request body producer; first cancel the 100-continue timer if
    /// `cancelContinueTimer`.
    case produceRequestBody(cancelContinueTimer: Bool)

    /// Pause the request body producer: the channel is not writable. Parts it still offers are
    /// accepted and written.
    case pauseRequestBody

    /// Stop the request body producer for good (it must offer nothing more); first cancel the
    /// 100-continue timer if `cancelContinueTimer`. The connection will close after the response.
    case stopRequestBody(cancelContinueTimer: Bool)

    /// Cancel the 100-continue timer (100 Continue arrived while the channel is not writable: the
    /// producer starts when it becomes writable).
    case cancelContinueTimer

    /// Hand the final response head to the consumer. First, if `cancelContinueTimer`, cancel the
    /// 100-continue timer; if `stopRequestBody`, stop the request body producer for good (the
    /// connection will close after the response). `isBodyDecoded` says that the body bytes that
    /// follow have had every `Content-Encoding` removed.
    case forwardResponseHead(
        HTTPResponseHead,
        isBodyDecoded: Bool,
        stopRequestBody: Bool,
        cancelContinueTimer: Bool
    )

    /// Hand body bytes to the consumer.
    case forwardResponseBody(HTTP1ResponseBodyBytes)

    /// Hand the trailer fields of a chunked response to the consumer (only when there are some).
    case forwardResponseTrailers(HTTPFieldList)

    /// Stop reading from the socket: the consumer cannot take more. The rest of the buffer being
    /// processed is still delivered.
    case pauseReading

    /// Read from the socket again.
    case resumeReading

    /// The request is over (succeeded or failed); do what `HTTP1RequestCompletion` says, in the
    /// order of its fields. Exactly one per request started.
    case finishRequest(HTTP1RequestCompletion)

    /// Close the connection; no request was in progress.
    case closeConnection(HTTP1CloseReason)
}

/// Response body bytes, as they are handed to the consumer.
public enum HTTP1ResponseBodyBytes: Sendable {
    /// This range of the buffer passed to the `bytesRead(_:)` call that returned the action (not
    /// copied; valid only until the driver reuses that buffer).
    case inReadBuffer(Range<Int>)
    /// Bytes decoded from the `Content-Encoding`. The slice shares the machine's output buffer:
    /// keeping it is allowed but makes the next decoded piece allocate.
    case decoded(ArraySlice<UInt8>)
}

/// How a request ended and what becomes of the connection. The driver applies the fields in
/// order: stop the body producer, cancel the timer, report the outcome, then release or close.
public struct HTTP1RequestCompletion: Sendable {
    /// Stop the request body producer for good (it was still started or paused).
    public let stopRequestBody: Bool
    /// Cancel the 100-continue timer (it was still scheduled).
    public let cancelContinueTimer: Bool
    /// Why the request failed, or nil when it succeeded: the response was delivered in full.
    public let failure: HTTP1ConnectionError?
    /// What `ReplayPolicy` needs to know about the exchange.
    public let facts: HTTP1ExchangeFacts
    /// Release the connection for another request, or close it.
    public let connection: HTTP1ConnectionDisposition
}

/// What becomes of a connection after a request.
public enum HTTP1ConnectionDisposition: Hashable, Sendable {
    /// The connection may carry another request: give it back to the pool. If `resumeReading`,
    /// reading was paused and must resume, so that the idle connection notices a close.
    case release(resumeReading: Bool)
    /// Close the connection; it must never carry another request.
    case close(HTTP1CloseReason)
}

/// Why a connection is closed.
public enum HTTP1CloseReason: Hashable, Sendable {
    /// The response said `Connection: close`, or was HTTP/1.0 without `keep-alive`.
    case serverRequestedClose
    /// The response body was delimited by the connection's close.
    case closeDelimitedBody
    /// The response ended before the request body was sent in full (an early final response,
    /// or a final response before 100 Continue): the server would read the unsent bytes as the
    /// next request.
    case requestBodyUnsent
    /// More bytes followed the end of the response: the connection cannot be trusted.
    case bytesAfterResponse
    /// Bytes arrived while no request was in progress: the connection cannot be trusted.
    case unsolicitedBytes
    /// The server closed the connection (EOF) while no request was in progress.
    case closedByServer
    /// A write or the connection failed while no request was in progress, or a write failed
    /// while a response was being received.
    case transportFailed
    /// The request failed; its `HTTP1ConnectionError` says why.
    case requestFailed
}

/// The facts `ReplayPolicy.decide` needs about an exchange that failed.
public struct HTTP1ExchangeFacts: Hashable, Sendable {
    /// Whether the connection had carried an earlier request (released after it).
    public let connectionWasReused: Bool
    /// Request bytes the driver reported written to the socket (`requestBytesWritten(_:)`).
    public let requestBytesWritten: Int
    /// Response bytes the parser received (consumed or rejected) for this request.
    public let responseBytesReceived: Int

    /// Whether the exchange ended before any response byte arrived: the server may not have
    /// seen the request at all (the stale keep-alive race when `connectionWasReused`).
    public var endedBeforeAnyResponseByte: Bool { responseBytesReceived == 0 }

    /// Facts.
    public init(connectionWasReused: Bool, requestBytesWritten: Int, responseBytesReceived: Int) {
        self.connectionWasReused = connectionWasReused
        self.requestBytesWritten = requestBytesWritten
        self.responseBytesReceived = responseBytesReceived
    }
}
