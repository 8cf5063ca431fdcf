// One request's journey through the pool: waiting, on a connection, replayed once, finished.
import FoundationEssentials
import WickCore
import WickHTTP1
import WickHTTP2
import WickPool
import WickReactor
package import WickTLS

/// The state of one `execute` call, and the consumer of its response.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every `var` is read and written
/// only by the thread acting as the runner's loop (`runner.loop`: its own thread, or a
/// borrower in `EventLoop.runIfAsleep`), where the runner, the connection drivers and the
/// timers all run, except what `ConnectionPoolRunner.start` sets on the caller's thread before it
/// borrows the loop or queues the exchange there (`deadline`, `sink`, `leaseObserver`,
/// `completion`, `loopWork`; the loop's ownership or inbox lock orders those writes before every
/// read there). The exchange queues itself on the loop (`LoopRunnable`), so going there
/// allocates nothing, and it is its own cancellation handle (`TransportCancellation`). The
/// completion is called once, on the loop's thread: as the loop, or after its iteration
/// (`completesAfterIteration`), when nothing else touches a finished exchange.
package final class TransportExchange: HTTP1ResponseConsumer, HTTP2StreamConsumer, LoopRunnable, @unchecked Sendable {
    /// What `runOnLoop` does next.
    enum LoopWork {
        /// Nothing is queued.
        case none
        /// Enter the pool (`ConnectionPoolRunner.start`).
        case enterPool
        /// Tell the caller.
        case complete(Result<TransportResponse, TransportError>)
    }

    /// Told, on the loop, the moment the exchange gets its connection: whether the connection
    /// is reused, and its details.
    package typealias LeaseObserver = @Sendable (_ isReused: Bool, _ connection: StreamConnectionDetails) -> Void

    /// The most body buffer reserved from a declared `Content-Length` before bytes arrive.
    static let maximumUpFrontReservation: UInt64 = 64 << 20

    /// Where the request is.
    enum Phase {
        /// Made, not yet in the pool (a cancel now makes it finish as cancelled when it starts).
        case created
        /// In the pool under this id (waiting for, or about to get, a connection).
        case waiting(PoolRequestID)
        /// On a connection (HTTP/1.1) or one of its streams (HTTP/2).
        case running(any ExchangeCarrier)
        /// Completed; nothing more happens.
        case finished
    }

    let request: TransportRequest
    // `@exclusivity(unchecked)` on the loop-confined stored properties below: they are touched on
    // one thread only, and no access overlaps another (no inout of one across a call that
    // reaches it), so the runtime's dynamic check proves nothing; it cost a thread-local lookup
    // and an access-set insert per access, about 7,000 instructions per request (callgrind).
    /// Bounds the pool wait and the exchange; set by `start`.
    @exclusivity(unchecked) private(set) var deadline = Deadline.distantFuture
    /// The runner's loop, which owns this exchange.
    let loop: EventLoop
    let maximumBodyBytes: Int
    /// Where a streamed body goes; nil collects every body. Set by `start`.
    @exclusivity(unchecked) private(set) var sink: (any TransportBodySink)?
    /// Whether the current response's body goes to `sink`.
    @exclusivity(unchecked) private var isStreaming = false
    /// The sink holds as much as it will (it said so from `responseBody`).
    @exclusivity(unchecked) private var isSinkFull = false
    /// The request was suspended (`pauseReading`): the connection reads nothing until resumed.
    @exclusivity(unchecked) private var isPausedByCaller = false
    /// Whether the current response's body is collected and also shown to `sink` (`.observe`).
    @exclusivity(unchecked) private var isObserved = false
    private var completion: @Sendable (consuming Result<TransportResponse, TransportError>) -> Void = { _ in }

    @exclusivity(unchecked) var phase = Phase.created
    /// Counted in the runner's `exchangesInFlight`, from its first entry into the pool to its end.
    @exclusivity(unchecked) var isCountedInFlight = false
    /// The connection a caller's inline wait began on, until it ends.
    @exclusivity(unchecked) private var inlineWaitCarrier: (any ExchangeCarrier)?
    /// The pool must give this attempt a connection that never carried a request.
    @exclusivity(unchecked) private(set) var isReplay = false
    /// How many times the request was sent again after an HTTP/2 connection refused it
    /// unprocessed (GOAWAY, REFUSED_STREAM, or refused before writing: a lease that raced the
    /// connection's end); at most `maximumUnprocessedResends`, on any connection.
    @exclusivity(unchecked) private var unprocessedResends = 0
    /// The bound on `unprocessedResends`: a server that refuses every stream fails the request.
    static let maximumUnprocessedResends = 3
    /// The Swift task was cancelled.
    @exclusivity(unchecked) private(set) var isCancelled = false
    /// The request's deadline passed while it waited for a connection in this phase of being
    /// made; the runner takes it out of the pool with this timeout.
    @exclusivity(unchecked) var expiredWhileConnecting: ConnectPhase?
    /// When it entered the pool, for `poolWait`.
    @exclusivity(unchecked) var enteredPool: Deadline?
    @exclusivity(unchecked) private(set) var metrics: TransportMetrics
    /// A failure decided here rather than by the connection (a body over the limit).
    @exclusivity(unchecked) private var localFailure: TransportError?
    /// The final response head: status, version and fields.
    @exclusivity(unchecked) private var head: (status: HTTPStatus, version: HTTPVersion, headers: HTTPHeaders)?
    /// The body as it arrives, handed to the caller as `Data` without a copy; reads of a large
    /// body land in its spare capacity (`responseBodyDestination`).
    @exclusivity(unchecked) private var body = CollectedBody()
    @exclusivity(unchecked) private var trailers: HTTPHeaders?
    /// The pool it belongs to, asked to take the request back for its one replay (weak: the
    /// runner holds its exchanges).
    private weak var runner: ConnectionPoolRunner?
    @exclusivity(unchecked) private var leaseObserver: LeaseObserver?
    /// What the next `runOnLoop` does.
    @exclusivity(unchecked) var loopWork = LoopWork.none
    /// The caller is told after the loop's iteration, outside the loop
    /// (`EventLoop.executeAfterIteration`), not in a loop task; set by `start`.
    @exclusivity(unchecked) private(set) var completesAfterIteration = false
    /// The faults a `FaultInjector` injected into this request's dials and attempts, in order
    /// (empty, and unallocated, without an injector). Read on the loop, where the completion runs.
    @exclusivity(unchecked) package var injectedFaults: [InjectedFault] = []

    /// An exchange for `request` on `runner`, not started (`ConnectionPoolRunner.start`).
    init(request: consuming TransportRequest, runner: ConnectionPoolRunner, maximumBodyBytes: Int) {
        self.request = consume request
        loop = runner.loop
        self.runner = runner
        self.maximumBodyBytes = maximumBodyBytes
        metrics = TransportMetrics(started: .now())
    }

    /// Fills in what the start brings, on the caller's thread, before the exchange is queued on
    /// the loop (see the type's thread ownership).
    func prepareToStart(
        deadline: Deadline, sink: (any TransportBodySink)?, leaseObserver: LeaseObserver?,
        completesAfterIteration: Bool,
        completion: @escaping @Sendable (consuming Result<TransportResponse, TransportError>) -> Void
    ) {
        self.completesAfterIteration = completesAfterIteration
        self.deadline = deadline
        self.sink = sink
        self.leaseObserver = leaseObserver
        self.completion = completion
        metrics = TransportMetrics(started: .now())
        loopWork = .enterPool
    }

    /// The request got `connection`; `timings` are the connection's, which count for this
    /// request when the connection is new. An HTTP/2 connection gives it a stream of its own.
    func leased(_ connection: LeasedConnection, isReused: Bool, timings: ConnectionTimings?) {
        switch connection {
        case .http1(let driver):
            metrics.httpVersion = .http1_1
            phase = .running(driver)
            recordLease(connectionDetails: driver.connectionDetails, isReused: isReused, timings: timings)
            driver.execute(
                request.connectionRequest, body: request.body ?? [], source: request.bodySource, deadline: deadline,
                consumer: self)
            if isPausedByCaller { driver.consumerBecameFull() }
        case .http2(let driver):
            metrics.httpVersion = .http2
            recordLease(connectionDetails: driver.connectionDetails, isReused: isReused, timings: timings)
            let handle = HTTP2StreamHandle(driver: driver, connectionDetails: driver.connectionDetails)
            phase = .running(handle)
            driver.execute(
                request.http2Head, body: request.body ?? [], source: request.bodySource, decoding: request.decoding,
                deadline: deadline, handle: handle, consumer: self)
            // A stream refused at once has finished the exchange already (or sent it back to the pool).
            if isPausedByCaller, case .running = phase { handle.consumerBecameFull() }
        }
    }

    /// Fills in the lease's part of the metrics and tells the lease observer.
    private func recordLease(
        connectionDetails connection: StreamConnectionDetails, isReused: Bool, timings: ConnectionTimings?
    ) {
        let now = Deadline.now()
        // Stored as read, not through the `Duration` setters: their 128-bit arithmetic ran four
        // times a request for one clock difference and three absent phases.
        metrics.storedPoolWait = enteredPool.map { CompactDuration(from: $0, to: now) } ?? .none
        metrics.isReused = isReused
        if !isReused, let timings {
            metrics.resolve = timings.resolve
            metrics.connect = timings.connect
            metrics.tlsHandshake = timings.tlsHandshake
        } else {
            metrics.storedResolve = .none
            metrics.storedConnect = .none
            metrics.storedTlsHandshake = .none
        }
        metrics.connection = connection
        leaseObserver?(isReused, connection)
    }

    /// Whether the exchange runs on a connection that carries other requests now (an HTTP/2
    /// connection with other streams open): what it writes is best sent with theirs.
    var sharesConnection: Bool {
        guard case .running(let carrier) = phase else { return false }
        return carrier.carriesOtherRequests
    }

    /// The socket a caller waiting inline for the response watches
    /// (`TransportCancellation.waitInline`): the connection's, while the exchange runs on it,
    /// alone on its runner (a caller waiting while other exchanges run would make the loop's
    /// thread wake and take the loop back for each of their responses), and collects a body
    /// that nothing holds back, and the connection's `InlineWaitHistory` lets the wait begin;
    /// else nil, and the wait ends.
    func inlineWaitDescriptor() -> Int32? {
        guard case .running(let carrier) = phase, sink == nil, !isPausedByCaller,
            runner?.exchangesInFlight.load(ordering: .relaxed) == 1
        else { return nil }
        if inlineWaitCarrier !== carrier {
            guard carrier.inlineWaitMayBegin() else { return nil }
            inlineWaitCarrier = carrier
        }
        return carrier.readinessDescriptor
    }

    /// A caller's inline wait ended: the connection it began on records whether the response
    /// came in time (`InlineWaitHistory`).
    func inlineWaitEnded(_ end: EventLoop.InlineWaitEnd) {
        guard let carrier = inlineWaitCarrier else { return }
        inlineWaitCarrier = nil
        switch end {
        case .workEnded: carrier.inlineWaitEnded(ranOut: false)
        case .ranOut: carrier.inlineWaitEnded(ranOut: true)
        case .interrupted: break
        }
    }

    /// The sink can take body bytes again: reading resumes unless the caller paused it.
    func demandMore() {
        isSinkFull = false
        if !isPausedByCaller, case .running(let driver) = phase { driver.consumerWantsMore() }
    }

    /// The caller suspended the request: the connection stops reading (kept open, the server
    /// held back by TCP) until `resumeReading()`. Time paused does not count as idle.
    func pauseReading() {
        guard !isPausedByCaller else { return }
        isPausedByCaller = true
        if !isSinkFull, case .running(let driver) = phase { driver.consumerBecameFull() }
    }

    /// The caller resumed the request: reading resumes unless the sink is full.
    func resumeReading() {
        guard isPausedByCaller else { return }
        isPausedByCaller = false
        if !isSinkFull, case .running(let driver) = phase { driver.consumerWantsMore() }
    }

    /// Marks the request cancelled; the runner then takes it out of the pool or off its connection.
    func markCancelled() {
        isCancelled = true
    }

    /// Completes the request once. The caller hears it in a later loop task, after the
    /// connection's release (queued first by the driver) has reached the pool: a caller that
    /// sends its next request at once then finds the connection idle. With
    /// `completesAfterIteration`, later still: after the loop's iteration, outside the loop, so
    /// that a caller woken on another thread finds the loop free to borrow.
    func finish(_ result: consuming Result<TransportResponse, TransportError>) {
        if case .finished = phase { return }
        phase = .finished
        if isCountedInFlight { runner?.exchangeEnded() }
        loopWork = .complete(consume result)
        if completesAfterIteration, loop.executeAfterIteration(self) { return }
        // A stopped loop runs nothing: the caller is told here instead.
        if !loop.execute(self) { runOnLoop() }
    }

    /// Does the queued work: enters the pool, or tells the caller. The work is moved out of
    /// `loopWork`, not copied (a response is copied through its value witnesses). Telling the
    /// caller may run after the loop's iteration, outside it: a finished exchange's `loopWork`
    /// is then touched by nothing else.
    package func runOnLoop() {
        var work = LoopWork.none
        swap(&work, &loopWork)
        switch consume work {
        case .none:
            preconditionFailure("TransportExchange.runOnLoop: nothing was queued")
        case .enterPool:
            guard let runner else { return finish(.failure(.shutdown)) }
            runner.enterPool(self)
        case .complete(let result):
            completion(result)
        }
    }

    // MARK: - HTTP1ResponseConsumer

    func requestSent() {
        metrics.requestSent = .now()
    }

    func responseStarted() {
        metrics.firstByte = .now()
    }

    /// Completes with the response gathered (either protocol); `what` names it in the trap
    /// for an end without a head, which a connection never reports.
    private func finishWithResponse(ended what: StaticString) {
        // The head, body and trailers move into the response: nothing reads them after the
        // finish. The metrics are copied, since a hedged run still reads them.
        guard let head = head.take() else { preconditionFailure("TransportExchange: \(what) ended without a head") }
        finish(
            .success(
                TransportResponse(
                    status: head.status, version: head.version, headers: head.headers, body: body.take(),
                    trailers: trailers.take(), metrics: metrics)))
    }

    /// The phase a timeout ends the exchange in: idleness before the deadline, else how far
    /// the exchange had come.
    private var timeoutPhase: ExchangeTimeout {
        if Deadline.now() < deadline {
            .idle
        } else if metrics.requestSent == nil {
            .sendingRequest
        } else if metrics.firstByte == nil {
            .waitingForResponse
        } else {
            .receivingResponse
        }
    }

    func responseHead(_ head: HTTPResponseHead, isBodyDecoded: Bool) {
        let length: UInt64? = if case .contentLength(let length) = head.framing { length } else { nil }
        responseHeadArrived(
            status: head.status, version: head.version, headers: head.headers, contentLength: length,
            isBodyDecoded: isBodyDecoded)
    }

    /// The final head of either protocol: kept, shown to the sink, and its declared length
    /// sizes the body buffer.
    private func responseHeadArrived(
        status: HTTPStatus, version: HTTPVersion, headers: HTTPHeaders, contentLength: UInt64?, isBodyDecoded: Bool
    ) {
        metrics.responseHead = .now()
        head = (status, version, headers)
        let handling = sink?.responseHead(status: status, headers: headers)
        isStreaming = handling == .stream
        isObserved = handling == .observe
        if isStreaming { return }
        // A declared length sizes the buffer once instead of growing it by doubling (copying the
        // body again each time). A decoded body's final size is unknown. The body limit and a
        // fixed cap bound what a hostile Content-Length can make us reserve up front; past the
        // cap the buffer grows as bytes really arrive.
        if !isBodyDecoded, let contentLength {
            body.reserveCapacity(Int(min(contentLength, UInt64(maximumBodyBytes), Self.maximumUpFrontReservation)))
        }
    }

    func responseBody(_ bytes: UnsafeRawBufferPointer) {
        guard localFailure == nil else { return }
        if isStreaming, let sink {
            metrics.streamedBodyBytes += bytes.count
            if !sink.responseBody(bytes) { sinkBecameFull() }
            return
        }
        guard bytes.count <= maximumBodyBytes - body.count else {
            localFailure = .responseBodyTooLarge(limit: maximumBodyBytes)
            if case .running(let driver) = phase { driver.cancelRequest() }
            return
        }
        // Bytes read into `responseBodyDestination`'s memory are counted in place; others
        // (the driver's read buffer, valid for this call) are copied.
        body.append(bytes)
        if isObserved, let sink, !sink.responseBody(bytes) { sinkBecameFull() }
    }

    func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer? {
        guard localFailure == nil else { return nil }
        if isStreaming { return sink?.responseBodyDestination(maximum: maximum) }
        return body.spareCapacity(maximum: min(maximum, maximumBodyBytes - body.count))
    }

    /// The sink holds as much as it will: the connection stops reading (unless the caller's
    /// pause already stopped it) until `demandMore()`.
    private func sinkBecameFull() {
        guard !isSinkFull else { return }
        isSinkFull = true
        if !isPausedByCaller, case .running(let driver) = phase { driver.consumerBecameFull() }
    }

    func responseReadComplete() {
        if isStreaming || isObserved { sink?.responseBodyReadComplete() }
    }

    func responseTrailers(_ fields: HTTPFieldList) {
        trailers = fields.headers
    }

    func responseTrailers(_ headers: HTTPHeaders) {
        trailers = headers
    }

    func requestBodyFailed(_ error: any Error) {
        guard localFailure == nil else { return }
        localFailure = .requestBodyFailed(reason: "\(error)")
        if case .running(let driver) = phase { driver.cancelRequest() }
    }

    func requestFinished(failure: HTTP1ConnectionError?, facts: HTTP1ExchangeFacts) {
        metrics.completed = .now()
        if !injectedFaults.isEmpty { metrics.injectedFaults = injectedFaults }
        metrics.requestBytesSent = facts.requestBytesWritten
        metrics.responseBytesReceived = facts.responseBytesReceived
        if let localFailure { return finish(.failure(localFailure)) }
        guard let failure else {
            return finishWithResponse(ended: "a response")
        }
        switch failure {
        case .cancelled:
            finish(.failure(.cancelled))
        case .timedOut:
            // The deadline timer fires at `deadline`; the driver's idle timer only before it.
            finish(.failure(.timedOut(timeoutPhase)))
        case .closedBeforeResponse, .connectionClosedBeforeRequest, .writeFailed, .connectionFailed:
            let decision = ReplayPolicy.decide(
                method: request.method,
                hasIdempotencyKey: request.headers.contains(name: "Idempotency-Key"),
                requestBytesWritten: facts.requestBytesWritten,
                responseBytesReceived: facts.responseBytesReceived,
                connectionWasReused: facts.connectionWasReused,
                alreadyReplayed: isReplay)
            // A streamed body must start again from its first byte, or the replay cannot happen.
            let canRestartBody = request.bodySource?.rewind() ?? true
            switch decision {
            case .replayOnFreshConnection where !isCancelled && !canRestartBody:
                finish(.failure(.requestFailed(failure, requestMayHaveBeenProcessed: facts.requestBytesWritten > 0)))
            case .replayOnFreshConnection where !isCancelled:
                isReplay = true
                sendAgain()
            case .replayOnFreshConnection:
                finish(.failure(.cancelled))
            case .fail(let mayHaveBeenProcessed):
                finish(.failure(.requestFailed(failure, requestMayHaveBeenProcessed: mayHaveBeenProcessed)))
            }
        case .requestHeadRefused, .requestTrailersRefused, .requestBodyTooLong, .requestBodyTooShort,
            .trailersNeedChunkedBody, .invalidResponse, .undecodableBody, .unexpectedProtocolSwitch:
            finish(.failure(.requestFailed(failure, requestMayHaveBeenProcessed: facts.requestBytesWritten > 0)))
        }
    }

    /// Sends the request again through the pool, everything received for it forgotten. From an
    /// HTTP/2 stream (`inLaterTask`) it enters the pool in a loop task of its own, after the
    /// connection's news queued before it (GOAWAY, the stream's release) reached the pool, so
    /// it is not leased the connection that just refused it.
    private func sendAgain(inLaterTask: Bool = false) {
        metrics.wasReplayed = true
        head = nil
        body.removeAll()
        isStreaming = false
        isObserved = false
        trailers = nil
        phase = .created
        guard let runner else { return finish(.failure(.shutdown)) }
        guard inLaterTask else { return runner.enterPool(self) }
        loopWork = .enterPool
        if !loop.execute(self) { finish(.failure(.shutdown)) }
    }

    // MARK: - HTTP2StreamConsumer

    func responseHead(status: HTTPStatus, headers: HTTPHeaders, contentLength: UInt64?, isBodyDecoded: Bool) {
        responseHeadArrived(
            status: status, version: .http2, headers: headers, contentLength: contentLength,
            isBodyDecoded: isBodyDecoded)
    }

    func streamFinished(failure: HTTP2StreamFailure?, requestBytesWritten: Int, responseBytesReceived: Int) {
        metrics.completed = .now()
        metrics.requestBytesSent = requestBytesWritten
        metrics.responseBytesReceived = responseBytesReceived
        if let localFailure { return finish(.failure(localFailure)) }
        guard let failure else {
            return finishWithResponse(ended: "a stream")
        }
        switch failure {
        case .cancelled:
            finish(.failure(.cancelled))
        case .timedOut:
            // The watchdog fails a stream at `deadline`, or before it only for idleness.
            finish(.failure(.timedOut(timeoutPhase)))
        case _ where failure.wasUnprocessed:
            // RFC 9113 §8.7: the server did not process it, so any method may go again (bounded).
            if isCancelled { return finish(.failure(.cancelled)) }
            guard unprocessedResends < Self.maximumUnprocessedResends, request.bodySource?.rewind() ?? true else {
                return finish(.failure(.streamFailed(failure, requestMayHaveBeenProcessed: false)))
            }
            unprocessedResends += 1
            sendAgain(inLaterTask: true)
        case .connectionClosed, .connectionUnresponsive, .writeFailed:
            let decision = ReplayPolicy.decide(
                method: request.method,
                hasIdempotencyKey: request.headers.contains(name: "Idempotency-Key"),
                requestBytesWritten: requestBytesWritten,
                responseBytesReceived: responseBytesReceived,
                connectionWasReused: metrics.isReused,
                alreadyReplayed: isReplay)
            switch decision {
            case .replayOnFreshConnection where !isCancelled && request.bodySource?.rewind() ?? true:
                isReplay = true
                sendAgain(inLaterTask: true)
            case .replayOnFreshConnection where isCancelled:
                finish(.failure(.cancelled))
            case .replayOnFreshConnection:
                finish(.failure(.streamFailed(failure, requestMayHaveBeenProcessed: true)))
            case .fail(let mayHaveBeenProcessed):
                finish(.failure(.streamFailed(failure, requestMayHaveBeenProcessed: mayHaveBeenProcessed)))
            }
        case .refused, .reset, .protocolError, .goAway, .undecodableBody:
            finish(.failure(.streamFailed(failure, requestMayHaveBeenProcessed: !failure.wasUnprocessed)))
        }
    }
}
