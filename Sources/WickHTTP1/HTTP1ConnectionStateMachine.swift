// The exchange logic of one HTTP/1.1 connection, sans-I/O: requests out, responses in, reuse decided.
//
// Rules
//
// 1. One request at a time, no pipelining. `startRequest` is legal only while the connection is
//    idle; the request then ends with exactly one `.finishRequest`, which says whether the
//    connection is released (reusable) or closed. A closed connection takes no more requests:
//    one started there (the server closed it while the pool leased it) fails at once with
//    nothing written, so `ReplayPolicy` may send it elsewhere.
// 2. Bytes that arrive while no request is in progress are unsolicited: nobody asked for them,
//    so the connection is no longer in step with the server and is closed. EOF or an error while
//    idle closes it too.
// 3. The request body is pulled from a producer the driver runs: `.produceRequestBody` starts or
//    resumes it, `.pauseRequestBody` pauses it while the channel is not writable (parts it still
//    offers are written), `.stopRequestBody` ends it for good. Offering a part the machine did
//    not ask for (before the body started, after it ended or stopped) is a driver bug and traps.
//    A `Content-Length` body must be exactly that long: more or less fails the request.
// 4. `Expect: 100-continue` (RFC 9110 §10.1.1): the head goes out and the body waits. 100 Continue
//    releases it; if the driver's timer fires first, it is sent anyway. A final response that
//    comes before 100 Continue means the body is never sent, and the connection closes after
//    that response. Other 1xx responses are read and skipped (they count as response bytes).
// 5. An early final response (its head arrives while the body is still being sent): with a
//    status of 300 or more the server has said it will not use the body, so the body stops and
//    the connection closes after the response. A 2xx lets the body continue (the server may be
//    streaming both ways); but if the 2xx response ends before the body does, the body stops and
//    the connection closes. Why close: unsent body bytes would be read as the next request.
// 6. The request succeeds when the response has ended, and the connection is released only if
//    all of these hold: the request was handed over in full, the response allowed reuse (not
//    `Connection: close`, not HTTP/1.0 without keep-alive, not close-delimited), no byte
//    followed the response in the same read, no write failed, and the decoder (if any) ended
//    cleanly. Otherwise it closes, with the first reason that applies.
// 7. Every failure closes the connection: a parse error, a decoder error or limit, a truncated
//    response (EOF mid-response), 101 or an accepted CONNECT, a user cancel or a deadline once
//    the request has started, a write or connection failure. The one exception is a head the encoder refuses:
//    nothing was written, so the connection is released.
// 8. A write failure before any response byte fails the request at once (the stale keep-alive
//    race, for `ReplayPolicy`). After a response byte, the body stops and the response is still
//    read to its end (a server that answers 413 and closes its read side); the connection then
//    closes.
// 9. The machine reports facts, never policy: request bytes written (as the driver reports
//    them), response bytes received, and whether the connection was reused. `ReplayPolicy`
//    decides with them; EOF before any response byte is `closedBeforeResponse`.
// 10. Reading backpressure: when the consumer is full, `.pauseReading`; on `demandMoreResponseBody`,
//    `.resumeReading`. The pause stops socket reads; the buffer being processed is still
//    delivered (the driver's read buffer bounds it).
// 11. Decoding: when the request asked for it and the response has a `Content-Encoding` that
//    `ContentDecoder` supports, the machine decodes (`.decoded` pieces); otherwise body bytes
//    are ranges of the read buffer. A coding it cannot decode passes through, and the head says
//    so (`isBodyDecoded: false`).
// 12. Any other input in a state where it cannot happen is a driver bug: it traps with a message
//    naming the state and the event.

public import WickCore

/// The HTTP/1.1 logic of one connection: the driver feeds it events and performs the actions it
/// returns, so the driver itself decides nothing. The rules are at the top of this file.
///
/// ```swift
/// // Events in (each returns one action; reads return them one at a time until nil):
/// perform(machine.startRequest(request))                  // the pool leased this connection
/// while let action = machine.bytesRead(buffer) { perform(action) }  // buffer: the bytes read
/// perform(machine.eofRead())                              // read returned 0
/// perform(machine.requestBodyPartAvailable(byteCount: part.count))   // keep `part` to write
/// machine.requestBytesWritten(n)                          // after each successful write
/// // Actions out, in one exhaustive switch:
/// switch action {
/// case .writeRequestHead(let bytes, let startBody, let scheduleTimer): write(bytes); ...
/// case .writeRequestBodyPart(let before, let after): write(before); write(part); write(after)
/// case .forwardResponseBody(.inReadBuffer(let range)): consumer.body(buffer[range])
/// case .finishRequest(let end): stop/cancel per `end`; complete(end.failure, end.facts)
///     then release (pool.connectionBecameIdle) or close (socket.close) per `end.connection`
/// ...
/// }
/// ```
///
/// Noncopyable, because it owns the connection's response parser; not Sendable, because it owns
/// the content decoder: it belongs to the connection's event loop. In the steady state (no
/// decoding, the driver writes each slice before the next input) an exchange allocates nothing:
/// the encode buffer and the parser's head storage are reused.
public struct HTTP1ConnectionStateMachine: ~Copyable {
    /// Where the request body is.
    enum RequestSide {
        /// `Expect: 100-continue` was sent; the timer is scheduled; the producer has not started.
        case awaitingContinue(BodyProgress)
        /// The body is being sent; `producing` is false while the channel is not writable.
        case sending(BodyProgress, producing: Bool)
        /// Everything was handed to the driver.
        case sent
        /// The body was abandoned (rule 4, 5 or 8); the producer was told to stop.
        case stopped
    }

    /// How much of the body went out, against what the framing promised.
    struct BodyProgress {
        /// The `Content-Length`, or nil for chunked.
        var declared: Int?
        /// Bytes offered so far.
        var offered = 0
    }

    /// Where the response is.
    enum ResponseSide {
        /// Before the final head (1xx heads may have been skipped).
        case awaitingHead
        /// After the final head, until the end.
        case receivingBody(framing: HTTPBodyFraming, decoding: Bool)
    }

    /// One request in progress.
    struct Exchange {
        let decodingLimits: ContentDecoderLimits?
        var request: RequestSide
        var response = ResponseSide.awaitingHead
        /// Set once a reason to close after the response is known (rules 4, 5, 8).
        var closeAfterResponse: HTTP1CloseReason?
        var readingPaused = false
        let connectionWasReused: Bool
        var requestBytesHandedOut = 0
        var requestBytesWritten = 0
        var responseBytesReceived = 0
    }

    enum State {
        /// No request in progress.
        case idle
        /// A request in progress.
        case exchanging(Exchange)
        /// The connection was closed (or must be); nothing more may happen on it.
        case closed
    }

    var state = State.idle
    var parser: HTTPResponseParser
    /// Whether the channel can take more bytes (`channelWritabilityChanged`).
    var isWritable: Bool
    /// Requests that ended with the connection released.
    var completedExchanges = 0

    /// The request head and body framing are encoded here; reused for every request.
    var encodeBuffer: [UInt8] = []
    /// Decoded body bytes handed out in `.decoded`; reused.
    var decodedBuffer: [UInt8] = []
    /// A copy of the wire bytes fed to the decoder (its input is an array slice); reused.
    var decoderInput: [UInt8] = []
    /// The codings of the response being read; reused.
    var codings: [ContentCoding] = []
    /// The content decoder, created the first time a response needs one and reused.
    var decoder: ContentDecoder?

    /// Where `bytesRead` is in the buffer it is working through; see `bytesRead(_:)`.
    var readCursor = 0
    var readBufferCount = 0
    var isReadInProgress = false

    /// A machine for a freshly connected connection, idle.
    /// - Parameters:
    ///   - parserConfiguration: the response parser's limits and leniencies.
    ///   - isWritable: whether the channel starts writable.
    ///   - encodeBufferCapacity: bytes reserved for request heads (the buffer grows if needed).
    public init(
        parserConfiguration: HTTPParserConfiguration = .strict,
        isWritable: Bool = true,
        encodeBufferCapacity: Int = 1024
    ) {
        parser = HTTPResponseParser(configuration: parserConfiguration)
        self.isWritable = isWritable
        encodeBuffer.reserveCapacity(encodeBufferCapacity)
    }

    /// Whether no request is in progress and the connection may take one.
    public var isIdle: Bool {
        if case .idle = state { true } else { false }
    }

    /// Whether the connection was closed (or the machine asked for it to be).
    ///
    /// `mutating` only so that a holder lends the machine in place: a driver keeps it in a class,
    /// and reading a non-mutating property of it there copied the whole machine (409 bytes) to
    /// the stack first, on every read. Changes nothing.
    public var isClosed: Bool {
        mutating get {
            if case .closed = state { true } else { false }
        }
    }

    /// The facts of the request in progress (nil when idle or closed); the same facts come with
    /// `.finishRequest`.
    public var currentFacts: HTTP1ExchangeFacts? {
        guard case .exchanging(let exchange) = state else { return nil }
        return exchange.facts
    }

    /// The facts of a request that failed before a byte of it was handed out.
    private var unwrittenRequestFacts: HTTP1ExchangeFacts {
        HTTP1ExchangeFacts(
            connectionWasReused: completedExchanges > 0,
            requestBytesWritten: 0,
            responseBytesReceived: 0
        )
    }

    // MARK: - Request

    /// Starts a request on the idle connection: encodes its head and says how the body starts.
    ///
    /// - Returns: `.writeRequestHead`; or `.finishRequest` with `requestHeadRefused` (and the
    ///   connection released) when the encoder refuses the head; or, when the connection has
    ///   closed already, `.finishRequest` with `connectionClosedBeforeRequest` (its `.close` is
    ///   then a close of a closed connection, which the driver ignores).
    public mutating func startRequest(_ request: consuming HTTP1ConnectionRequest) -> HTTP1ConnectionAction {
        switch state {
        case .idle:
            break
        case .closed:
            // The connection closed while the pool was leasing it: a race, not a bug.
            return .finishRequest(
                HTTP1RequestCompletion(
                    stopRequestBody: false,
                    cancelContinueTimer: false,
                    failure: .connectionClosedBeforeRequest,
                    facts: unwrittenRequestFacts,
                    connection: .close(.requestFailed)
                ))
        case .exchanging:
            trap("startRequest(\(request.head.method))", "one request at a time")
        }
        let declared = request.declaredBodyLength
        let hasBody = declared != 0
        let expectContinue = request.expectContinue && hasBody
        encodeBuffer.removeAll(keepingCapacity: true)
        do {
            // The head is encoded where the request holds it; a copy only to add `Expect`.
            if expectContinue && !request.head.headers.contains(name: "Expect") {
                var head = request.head
                head.headers.add(name: "Expect", value: "100-continue")
                try HTTPRequestEncoder.encodeHead(
                    head, vettedOriginTargetAndHost: request.hasVettedOriginTargetAndHost, into: &encodeBuffer)
            } else {
                try HTTPRequestEncoder.encodeHead(
                    request.head, vettedOriginTargetAndHost: request.hasVettedOriginTargetAndHost,
                    into: &encodeBuffer)
            }
        } catch {
            return .finishRequest(
                HTTP1RequestCompletion(
                    stopRequestBody: false,
                    cancelContinueTimer: false,
                    failure: .requestHeadRefused(error),
                    facts: unwrittenRequestFacts,
                    connection: .release(resumeReading: false)
                ))
        }
        let progress = BodyProgress(declared: declared)
        let requestSide: RequestSide =
            if !hasBody { .sent } else if expectContinue { .awaitingContinue(progress) } else {
                .sending(progress, producing: isWritable)
            }
        var exchange = Exchange(
            decodingLimits: request.decoding,
            request: requestSide,
            connectionWasReused: completedExchanges > 0
        )
        exchange.requestBytesHandedOut = encodeBuffer.count
        parser.expectResponse(to: request.head.method)
        state = .exchanging(exchange)
        let startBody = if case .sending(_, producing: true) = requestSide { true } else { false }
        return .writeRequestHead(encodeBuffer[...], startBody: startBody, scheduleContinueTimer: expectContinue)
    }

    /// The body producer offers its next part, of `byteCount` bytes (the driver keeps the bytes
    /// and writes them as `.writeRequestBodyPart` says).
    ///
    /// - Returns: `.writeRequestBodyPart`, `.none` for an empty part, or `.finishRequest` with
    ///   `requestBodyTooLong` when the part would pass the `Content-Length`.
    public mutating func requestBodyPartAvailable(byteCount: Int) -> HTTP1ConnectionAction {
        precondition(byteCount >= 0, "requestBodyPartAvailable(byteCount: \(byteCount))")
        guard case .exchanging(var exchange) = state else {
            trap("requestBodyPartAvailable(byteCount: \(byteCount))", "no request in progress")
        }
        guard case .sending(var progress, let producing) = exchange.request else {
            trap("requestBodyPartAvailable(byteCount: \(byteCount))", "the body producer was not asked for a part")
        }
        progress.offered += byteCount
        if let declared = progress.declared, progress.offered > declared {
            return finish(exchange, failure: .requestBodyTooLong(declared: declared, offered: progress.offered))
        }
        exchange.request = .sending(progress, producing: producing)
        guard byteCount > 0 else {
            state = .exchanging(exchange)
            return .none
        }
        encodeBuffer.removeAll(keepingCapacity: true)
        if progress.declared == nil {
            HTTPRequestEncoder.encodeChunkHeader(length: byteCount, into: &encodeBuffer)
        }
        let headerEnd = encodeBuffer.count
        if progress.declared == nil {
            HTTPRequestEncoder.encodeChunkEnd(into: &encodeBuffer)
        }
        exchange.requestBytesHandedOut += encodeBuffer.count + byteCount
        state = .exchanging(exchange)
        return .writeRequestBodyPart(before: encodeBuffer[..<headerEnd], after: encodeBuffer[headerEnd...])
    }

    /// The body producer has no more parts; `trailers` (chunked bodies only) follow the last chunk.
    ///
    /// - Returns: `.writeRequestEnd`, or `.finishRequest` when the body is shorter than its
    ///   `Content-Length`, trailers come with a `Content-Length` body, or the encoder refuses
    ///   them.
    public mutating func requestBodyEnded(trailers: HTTPHeaders = HTTPHeaders()) -> HTTP1ConnectionAction {
        guard case .exchanging(var exchange) = state else {
            trap("requestBodyEnded(trailers: \(trailers.count))", "no request in progress")
        }
        guard case .sending(let progress, _) = exchange.request else {
            trap("requestBodyEnded(trailers: \(trailers.count))", "the body producer was not running")
        }
        encodeBuffer.removeAll(keepingCapacity: true)
        if let declared = progress.declared {
            if progress.offered < declared {
                return finish(exchange, failure: .requestBodyTooShort(declared: declared, sent: progress.offered))
            }
            if !trailers.isEmpty { return finish(exchange, failure: .trailersNeedChunkedBody) }
        } else {
            do {
                try HTTPRequestEncoder.encodeLastChunk(trailers: trailers, into: &encodeBuffer)
            } catch {
                return finish(exchange, failure: .requestTrailersRefused(error))
            }
        }
        exchange.request = .sent
        exchange.requestBytesHandedOut += encodeBuffer.count
        state = .exchanging(exchange)
        return .writeRequestEnd(encodeBuffer[...])
    }

    /// The driver wrote `count` request bytes to the socket. Bookkeeping for `ReplayPolicy`; no
    /// action follows. Bytes written after the request ended (the tail of its last write) are
    /// not counted.
    public mutating func requestBytesWritten(_ count: Int) {
        guard case .exchanging(var exchange) = state else { return }
        exchange.requestBytesWritten += count
        precondition(
            exchange.requestBytesWritten <= exchange.requestBytesHandedOut,
            "requestBytesWritten(\(count)): \(exchange.requestBytesWritten) written of \(exchange.requestBytesHandedOut) handed out"
        )
        state = .exchanging(exchange)
    }

    /// The channel became writable or stopped being so (its outbound buffer crossed a mark).
    ///
    /// - Returns: `.pauseRequestBody` or `.produceRequestBody` while the body is being sent,
    ///   else `.none`.
    public mutating func channelWritabilityChanged(isWritable: Bool) -> HTTP1ConnectionAction {
        self.isWritable = isWritable
        guard case .exchanging(var exchange) = state,
            case .sending(let progress, let producing) = exchange.request, producing != isWritable
        else { return .none }
        exchange.request = .sending(progress, producing: isWritable)
        state = .exchanging(exchange)
        return isWritable ? .produceRequestBody(cancelContinueTimer: false) : .pauseRequestBody
    }

    /// The 100-continue timer fired before 100 Continue: send the body anyway (RFC 9110 §10.1.1).
    ///
    /// - Returns: `.produceRequestBody`, or `.none` while the channel is not writable.
    public mutating func continueTimerFired() -> HTTP1ConnectionAction {
        guard case .exchanging(var exchange) = state, case .awaitingContinue(let progress) = exchange.request else {
            trap("continueTimerFired()", "no 100-continue timer is scheduled")
        }
        exchange.request = .sending(progress, producing: isWritable)
        state = .exchanging(exchange)
        return isWritable ? .produceRequestBody(cancelContinueTimer: false) : .none
    }

    /// The user cancelled the request.
    ///
    /// - Returns: `.finishRequest` with `cancelled`, closing the connection (bytes of the request
    ///   may be on the wire), or `.none` when no request is in progress (the cancel lost a race
    ///   with the request's end).
    public mutating func requestCancelled() -> HTTP1ConnectionAction {
        guard case .exchanging(let exchange) = state else { return .none }
        return finish(exchange, failure: .cancelled)
    }

    /// The request's deadline passed (the driver owns the clock and the timer).
    ///
    /// - Returns: `.finishRequest` with `timedOut`, closing the connection, or `.none` when no
    ///   request is in progress (the deadline lost a race with the request's end).
    public mutating func requestTimedOut() -> HTTP1ConnectionAction {
        guard case .exchanging(let exchange) = state else { return .none }
        return finish(exchange, failure: .timedOut)
    }

    /// A write to the socket failed.
    ///
    /// - Returns: before any response byte, `.finishRequest` with `writeFailed`; after one,
    ///   `.stopRequestBody` (or `.none`) and the response is read on (rule 8); with no request
    ///   in progress, `.closeConnection`.
    public mutating func writeFailed(_ error: any Error & Sendable) -> HTTP1ConnectionAction {
        switch state {
        case .idle:
            state = .closed
            return .closeConnection(.transportFailed)
        case .exchanging(var exchange):
            guard exchange.responseBytesReceived > 0 else { return finish(exchange, failure: .writeFailed(error)) }
            exchange.closeAfterResponse = exchange.closeAfterResponse ?? .transportFailed
            let action = stopBody(&exchange)
            state = .exchanging(exchange)
            return action
        case .closed:
            trap("writeFailed(\(error))", "the connection is closed: nothing was being written")
        }
    }

    /// The connection failed (a read error, a TLS failure, a reset).
    ///
    /// - Returns: `.finishRequest` with `connectionFailed`, or `.closeConnection` when idle.
    public mutating func connectionFailed(_ error: any Error & Sendable) -> HTTP1ConnectionAction {
        switch state {
        case .idle:
            state = .closed
            return .closeConnection(.transportFailed)
        case .exchanging(let exchange):
            return finish(exchange, failure: .connectionFailed(error))
        case .closed:
            trap("connectionFailed(\(error))", "the connection is closed")
        }
    }

    // MARK: - Shared

    /// Asks the producer to stop, cancelling the continue timer if it runs; marks the body
    /// abandoned.
    mutating func stopBody(_ exchange: inout Exchange) -> HTTP1ConnectionAction {
        switch exchange.request {
        case .awaitingContinue:
            exchange.request = .stopped
            return .stopRequestBody(cancelContinueTimer: true)
        case .sending:
            exchange.request = .stopped
            return .stopRequestBody(cancelContinueTimer: false)
        case .sent, .stopped:
            return .none
        }
    }

    /// Fails the request: the connection closes (rule 7). Sets the next state.
    mutating func finish(_ exchange: Exchange, failure: HTTP1ConnectionError) -> HTTP1ConnectionAction {
        end(exchange, failure: failure, closeReason: .requestFailed)
    }

    /// Completes the request successfully; the connection is released unless rule 6 gives a
    /// reason to close it. Sets the next state.
    mutating func complete(
        _ exchange: Exchange,
        responseAllowsReuse: Bool,
        bytesFollowResponse: Bool
    ) -> HTTP1ConnectionAction {
        var reason = exchange.closeAfterResponse
        if reason == nil, exchange.bodyIsUnsent { reason = .requestBodyUnsent }
        if reason == nil, !responseAllowsReuse {
            if case .receivingBody(.untilClose, _) = exchange.response {
                reason = .closeDelimitedBody
            } else {
                reason = .serverRequestedClose
            }
        }
        if reason == nil, bytesFollowResponse { reason = .bytesAfterResponse }
        return end(exchange, failure: nil, closeReason: reason)
    }

    /// Emits the request's one `.finishRequest`, stopping what still runs, and sets the next
    /// state: idle when released (`closeReason` nil), closed otherwise.
    private mutating func end(
        _ exchange: Exchange,
        failure: HTTP1ConnectionError?,
        closeReason: HTTP1CloseReason?
    ) -> HTTP1ConnectionAction {
        let connection: HTTP1ConnectionDisposition
        if let closeReason {
            connection = .close(closeReason)
            parser.reset()
            state = .closed
        } else {
            connection = .release(resumeReading: exchange.readingPaused)
            completedExchanges += 1
            state = .idle
        }
        let (stopRequestBody, cancelContinueTimer) =
            switch exchange.request {
            case .awaitingContinue: (true, true)
            case .sending: (true, false)
            case .sent, .stopped: (false, false)
            }
        return .finishRequest(
            HTTP1RequestCompletion(
                stopRequestBody: stopRequestBody,
                cancelContinueTimer: cancelContinueTimer,
                failure: failure,
                facts: exchange.facts,
                connection: connection
            ))
    }

    /// Traps: the driver reported `event` where it cannot happen.
    /// `event` is an autoclosure so that building its text costs nothing until a trap.
    func trap(_ event: @autoclosure () -> String, _ why: String, file: StaticString = #file, line: UInt = #line)
        -> Never
    {
        preconditionFailure("\(event()) in state \(state): \(why)", file: file, line: line)
    }
}

extension HTTP1ConnectionStateMachine.Exchange {
    /// Whether part of the request body was never handed to the driver.
    var bodyIsUnsent: Bool {
        if case .sent = request { false } else { true }
    }

    var facts: HTTP1ExchangeFacts {
        HTTP1ExchangeFacts(
            connectionWasReused: connectionWasReused,
            requestBytesWritten: requestBytesWritten,
            responseBytesReceived: responseBytesReceived
        )
    }
}
