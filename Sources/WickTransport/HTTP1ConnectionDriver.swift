// Runs one HTTP/1.1 connection state machine on one stream channel, on the channel's loop.
import WickCore
package import WickHTTP1
import WickPool
import WickReactor
import WickTLS

/// Performs what `HTTP1ConnectionStateMachine` decides, on one `StreamChannel`: it writes the
/// request, produces a request body given as bytes, runs the 100-continue and deadline timers,
/// pauses and resumes reading, forwards the response to the request's `HTTP1ResponseConsumer`,
/// and at the end tells its `HTTP1ConnectionDriverOwner` whether the connection was released or
/// closed. It decides nothing itself: every event goes into the machine and every action comes
/// out through one exhaustive `switch` (`perform`).
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every stored `var` is read and
/// written only on `channel.loop`'s thread. `init` and every method trap elsewhere
/// (`preconditionInEventLoop`); the channel calls the delegate methods there; the timers are
/// scheduled on that loop. `Sendable` only lets timer closures and `loop.execute` carry the
/// driver back to its own loop.
///
/// Owner notifications are deferred to a later loop task, so an owner that starts the next
/// request at once never re-enters the driver while it is inside a state-machine action.
package final class HTTP1ConnectionDriver: StreamChannelDelegate, LoopRunnable, @unchecked Sendable {
    /// The driver's bounds and timers.
    package struct Settings: Sendable {
        /// The most request-body bytes offered to the machine (and written) at once. Default
        /// 64 KiB: large enough that a big body costs few writes, small enough that pausing on
        /// the channel's high watermark happens promptly.
        package var requestBodyPartSize = 64 * 1024
        /// How long a request with `Expect: 100-continue` waits for 100 Continue before sending
        /// its body anyway (RFC 9110 §10.1.1). Default 1 s, as curl does.
        package var continueTimeout: Duration = .seconds(1)
        /// The response parser's limits and leniencies.
        package var parser: HTTPParserConfiguration = .strict
        /// The longest a request may go without a byte read or written; past it the request fails
        /// with `timedOut`. Time the consumer holds reading paused does not count. nil: no limit
        /// beyond the request's deadline. Checked lazily: one timer
        /// per idle period, moved forward when it finds recent progress, so a busy transfer costs
        /// a clock read per read or write and no timer operations.
        package var idleTimeout: Duration?

        package init() {}
    }

    /// The fewest body bytes worth reading into the consumer's memory rather than the loop's
    /// buffer: below it the copy costs less than a read that may come back short.
    static let minimumInPlaceRead: UInt64 = 16 * 1024
    /// The most one read into the consumer's memory takes (other connections wait meanwhile).
    static let maximumInPlaceRead: UInt64 = 1 << 20

    /// One request in progress.
    private struct Exchange {
        let consumer: any HTTP1ResponseConsumer
        /// The body's production; nil without a body (most requests), which keeps the exchange
        /// small enough for the compiler to copy and destroy it inline.
        let production: BodyProduction?
        /// Tells deliveries for this exchange from late ones for an earlier exchange.
        let number: UInt64
        /// Whether a body follows the head (bytes, or a source).
        var hasBody: Bool { production != nil }
        /// When the request fails with `timedOut` (`.distantFuture`: never).
        let deadline: Deadline
        /// When a byte was last read or written (or the request started).
        var lastProgress = Deadline.now()
        /// The final response's `Keep-Alive` hint.
        var keepAlive: KeepAliveHint?
        /// Whether a response byte was read (`responseStarted` told).
        var responseStarted = false
        /// The consumer paused reading (`consumerBecameFull`): the idle timer waits, since the
        /// connection is idle on the consumer's account, not the peer's.
        var isConsumerFull = false
        /// The idle period ran out once and the watchdog looks again after the next poll.
        var isConfirmingIdle = false
    }

    /// What sending a request's body takes: its bytes or its source, and where production
    /// stands. A class made only for a request with a body.
    private final class BodyProduction {
        /// The request body, produced in parts of `requestBodyPartSize`; empty with a `source`.
        let body: [UInt8]
        var offset = 0
        /// A body pulled piece by piece instead of `body`.
        let source: (any TransportBodySource)?
        /// A piece was asked of `source` and has not arrived.
        var awaitingPart = false
        /// A piece that arrived while the producer was paused.
        var pendingPart: Result<[UInt8], any Error>?
        /// The body part the machine is being offered (written by `.writeRequestBodyPart`).
        var part: ArraySlice<UInt8> = []
        /// Whether the machine asked the producer to run (started or resumed, not paused or stopped).
        var producing = false
        var continueTimer: Scheduled?

        init(body: [UInt8], source: (any TransportBodySource)?) {
            self.body = body
            self.source = source
        }
    }

    let channel: any StreamChannel
    let settings: Settings
    /// The channel's details, read once: they never change while it is open, and every request
    /// on the connection carries them in its metrics.
    private(set) lazy var connectionDetails = channel.connectionDetails
    /// The pool's side of this connection; weak because the owner holds its drivers.
    weak var owner: (any HTTP1ConnectionDriverOwner)?

    // `@exclusivity(unchecked)` on the loop-confined stored properties below: they are touched on
    // one thread only, and no access overlaps another (no inout of one across a call that
    // reaches it), so the runtime's dynamic check proves nothing; it cost a thread-local lookup
    // and an access-set insert per access, about 7,000 instructions per request (callgrind).
    @exclusivity(unchecked) private var machine: HTTP1ConnectionStateMachine
    @exclusivity(unchecked) private var exchange: Exchange?
    /// Callers that waited for this connection's responses inline (`ExchangeCarrier`).
    @exclusivity(unchecked) var inlineWaits = InlineWaitHistory()
    /// Set while `produceBody` runs, so that a resume inside it does not start a second loop.
    @exclusivity(unchecked) private var isProducingBody = false
    /// Exchanges started on this connection, numbering them.
    @exclusivity(unchecked) private var exchangeCount: UInt64 = 0
    /// Whether the channel reported `streamClosed` (or was closed by this driver).
    @exclusivity(unchecked) private var isChannelClosed = false
    @exclusivity(unchecked) private var closeReported = false
    /// The connection's one timer for the deadline and idle checks (`watchdogFired`).
    @exclusivity(unchecked) private var watchdog = ConnectionWatchdog()
    /// A release queued for the owner (`runOnLoop`).
    @exclusivity(unchecked) private var pendingRelease: PendingRelease?

    /// A release to report: the final response's `Keep-Alive` hint.
    private struct PendingRelease {
        let keepAlive: KeepAliveHint?
    }

    /// A driver for a connected, not yet started channel. Call on the channel's loop, then `start()`.
    init(channel: any StreamChannel, settings: Settings = Settings(), owner: (any HTTP1ConnectionDriverOwner)?) {
        channel.loop.preconditionInEventLoop()
        self.channel = channel
        self.settings = settings
        self.owner = owner
        machine = HTTP1ConnectionStateMachine(parserConfiguration: settings.parser, isWritable: channel.isWritable)
    }

    /// Starts reading from the channel. Call once, on the loop.
    func start() {
        channel.loop.preconditionInEventLoop()
        channel.start(delegate: self)
    }

    // MARK: - Commands

    /// Starts `request` (its body, if any, is `body`: exactly what the head's framing says). The
    /// consumer hears the response and then exactly one `requestFinished`. Legal only while no
    /// request is in progress; on a connection that closed already the request fails at once
    /// with `connectionClosedBeforeRequest` (nothing written).
    /// - Parameter deadline: when the request fails with `timedOut`.
    /// - Parameter source: a body pulled piece by piece (then `body` is empty); its length must
    ///   match the head's framing (`Content-Length`, or chunked when it has none).
    func execute(
        _ request: consuming HTTP1ConnectionRequest, body: [UInt8], source: (any TransportBodySource)? = nil,
        deadline: Deadline,
        consumer: any HTTP1ResponseConsumer
    ) {
        channel.loop.preconditionInEventLoop()
        precondition(exchange == nil, "HTTP1ConnectionDriver.execute: a request is already in progress")
        exchangeCount += 1
        let started = Exchange(
            consumer: consumer,
            production: body.isEmpty && source == nil ? nil : BodyProduction(body: body, source: source),
            number: exchangeCount, deadline: deadline)
        exchange = started
        if let due = nextCheck(of: started, at: started.lastProgress) { armWatchdog(at: due) }
        perform(machine.startRequest(consume request), readBuffer: nil)
    }

    /// Cancels the request in progress (the connection closes); does nothing without one.
    func cancelRequest() {
        channel.loop.preconditionInEventLoop()
        perform(machine.requestCancelled(), readBuffer: nil)
    }

    /// Tells the machine the consumer cannot take more body bytes for now.
    func consumerBecameFull() {
        channel.loop.preconditionInEventLoop()
        exchange?.isConsumerFull = true
        perform(machine.responseConsumerBecameFull(), readBuffer: nil)
    }

    /// Tells the machine the consumer can take body bytes again.
    func consumerWantsMore() {
        channel.loop.preconditionInEventLoop()
        if exchange?.isConsumerFull == true {
            exchange?.isConsumerFull = false
            // The idle period starts again now that reading resumes.
            exchange?.lastProgress = .now()
        }
        perform(machine.demandMoreResponseBody(), readBuffer: nil)
    }

    /// Closes the connection (the owner asked). A request in progress fails with
    /// `connectionFailed`; the owner hears `connectionClosed` unless it already did.
    func close() {
        channel.loop.preconditionInEventLoop()
        channel.close()
    }

    // MARK: - Channel events

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        guard !isChannelClosed, !machine.isClosed else { return }
        if exchange != nil, settings.idleTimeout != nil { exchange?.lastProgress = .now() }
        // Read in place: `if let current = exchange` copied the exchange (a retain of each
        // reference in it) on every read.
        if exchange?.responseStarted == false {
            exchange?.responseStarted = true
            exchange?.consumer.responseStarted()
        }
        // SAFETY: `buffer` is the channel's read buffer, valid only inside this closure; the machine is
        // handed it again on every call and keeps only a cursor, its actions name body bytes by range,
        // and `perform` uses `raw` only while it runs.
        bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            while let action = machine.bytesRead(raw) {
                perform(action, readBuffer: raw)
            }
        }
    }

    /// The consumer's own memory for a read that brings nothing but body bytes forwarded as
    /// they are (a collected body's spare capacity), so they are not copied there from the
    /// loop's buffer; nil (the loop's buffer) otherwise, and for the last few bytes of a body,
    /// where the copy costs less than a read that may come back short.
    func streamReadDestination(_ stream: any StreamChannel) -> UnsafeMutableRawBufferPointer? {
        guard !isChannelClosed, let expected = machine.undecodedBodyBytesExpected,
            expected >= Self.minimumInPlaceRead
        else { return nil }
        return exchange?.consumer.responseBodyDestination(maximum: Int(min(expected, Self.maximumInPlaceRead)))
    }

    func streamReadComplete(_ stream: any StreamChannel) {
        exchange?.consumer.responseReadComplete()
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        guard !isChannelClosed, !machine.isClosed else { return }
        perform(machine.eofRead(), readBuffer: nil)
    }

    func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool) {
        guard !isChannelClosed else { return }
        perform(machine.channelWritabilityChanged(isWritable: isWritable), readBuffer: nil)
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        isChannelClosed = true
        watchdog.cancel()
        if !machine.isClosed {
            perform(machine.connectionFailed(error ?? .reactor(.channelClosed)), readBuffer: nil)
        }
        reportClosed(error: error)
    }

    /// Tells the owner about the queued release, unless the connection closed meanwhile.
    package func runOnLoop() {
        guard let release = pendingRelease else { return }
        pendingRelease = nil
        guard !isChannelClosed else { return }
        channel.streamBecameIdle()
        owner?.connectionReleased(self, keepAlive: release.keepAlive)
    }

    // MARK: - Actions

    /// Performs one action of the machine. `readBuffer` is the buffer of the `bytesRead` call
    /// that returned it (nil for other inputs); `.inReadBuffer` ranges index it.
    private func perform(_ action: consuming HTTP1ConnectionAction, readBuffer: UnsafeRawBufferPointer?) {
        switch consume action {
        case .none:
            break
        case .writeRequestHead(let bytes, let startBody, let scheduleContinueTimer):
            guard write(bytes) else { return }
            if scheduleContinueTimer {
                exchange?.production?.continueTimer = channel.loop.schedule(after: settings.continueTimeout) { [self] in
                    continueTimerFired()
                }
            }
            if exchange?.hasBody == false { exchange?.consumer.requestSent() }
            if startBody { startProducing() }
        case .writeRequestBodyPart(let before, let after):
            guard let part = exchange?.production?.part else { return }
            _ = write(before) && write(part) && write(after)
        case .writeRequestEnd(let bytes):
            exchange?.production?.producing = false
            guard write(bytes) else { return }
            exchange?.consumer.requestSent()
        case .produceRequestBody(let cancelContinueTimer):
            if cancelContinueTimer { cancelContinueTimerIfScheduled() }
            startProducing()
        case .pauseRequestBody:
            exchange?.production?.producing = false
        case .stopRequestBody(let cancelContinueTimer):
            if cancelContinueTimer { cancelContinueTimerIfScheduled() }
            exchange?.production?.producing = false
        case .cancelContinueTimer:
            cancelContinueTimerIfScheduled()
        case .forwardResponseHead(let head, let isBodyDecoded, let stopRequestBody, let cancelContinueTimer):
            if cancelContinueTimer { cancelContinueTimerIfScheduled() }
            if stopRequestBody { exchange?.production?.producing = false }
            if let value = head.fields.firstValue(forName: "Keep-Alive") {
                exchange?.keepAlive = KeepAliveHint(headerValue: value)
            }
            exchange?.consumer.responseHead(head, isBodyDecoded: isBodyDecoded)
        case .forwardResponseBody(.inReadBuffer(let range)):
            guard let readBuffer else {
                preconditionFailure("HTTP1ConnectionDriver: .inReadBuffer(\(range)) outside a read")
            }
            // SAFETY: `range` is one the machine reported for this read, inside `readBuffer`, which is
            // valid for this `perform`; the consumer borrows the bytes for the call only (its
            // protocol's contract).
            exchange?.consumer.responseBody(UnsafeRawBufferPointer(rebasing: readBuffer[range]))
        case .forwardResponseBody(.decoded(let bytes)):
            // SAFETY: `bytes` is a slice of the machine's decoded buffer, pinned inside the closure;
            // the consumer borrows it for the call only.
            bytes.withUnsafeBytes { exchange?.consumer.responseBody($0) }
        case .forwardResponseTrailers(let fields):
            exchange?.consumer.responseTrailers(fields)
        case .pauseReading:
            channel.pauseReading()
        case .resumeReading:
            channel.resumeReading()
        case .finishRequest(let completion):
            finish(completion)
        case .closeConnection:
            closeChannel()
        }
    }

    /// Applies a request's completion in the order of its fields.
    private func finish(_ completion: HTTP1RequestCompletion) {
        guard let ended = exchange.take() else {
            preconditionFailure("HTTP1ConnectionDriver: finishRequest without a request in progress")
        }
        if completion.cancelContinueTimer { ended.production?.continueTimer?.cancel() }
        // The watchdog stays armed for the next exchange; it finds none, or checks that one.
        switch completion.connection {
        case .release(let resumeReading):
            if resumeReading { channel.resumeReading() }
            // Queued before the consumer hears the outcome, so that a consumer which defers its
            // own completion to a loop task (as `TransportExchange` does) lets the owner take the
            // connection back before the next request of the same caller arrives.
            // The driver queues itself (`runOnLoop`): no closure to allocate.
            pendingRelease = PendingRelease(keepAlive: ended.keepAlive)
            channel.loop.execute(self)
            ended.consumer.requestFinished(failure: completion.failure, facts: completion.facts)
        case .close:
            ended.consumer.requestFinished(failure: completion.failure, facts: completion.facts)
            closeChannel()
        }
    }

    /// Writes `bytes`, reporting them to the machine; on failure reports that and returns false
    /// (the machine decides what follows). Bytes count as written once the channel queued them:
    /// this overstates what the server may have seen, which only makes `ReplayPolicy` more careful.
    private func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return true }
        do {
            try channel.write(bytes)
        } catch {
            perform(machine.writeFailed(StreamChannelError.reactor(error)), readBuffer: nil)
            return false
        }
        machine.requestBytesWritten(bytes.count)
        if exchange != nil, settings.idleTimeout != nil { exchange?.lastProgress = .now() }
        return true
    }

    private func startProducing() {
        exchange?.production?.producing = true
        produceBody()
    }

    /// Offers body parts while the machine wants them. Writes inside may pause the producer
    /// (the channel crossed its high watermark) or end the request (a write failed): both are
    /// seen through `exchange` after each part.
    private func produceBody() {
        guard !isProducingBody else { return }
        isProducingBody = true
        defer { isProducingBody = false }
        // The exchange is read again each round: a part offered may end it.
        while let production = exchange?.production, production.producing {
            if let source = production.source {
                if let pending = production.pendingPart {
                    production.pendingPart = nil
                    offer(pending)
                    continue
                }
                guard !production.awaitingPart else { return }
                production.awaitingPart = true
                guard let number = exchange?.number else { return }
                source.read(maximum: settings.requestBodyPartSize) { [self] result in
                    channel.loop.execute { [self] in partArrived(result, exchange: number) }
                }
                return
            }
            let start = production.offset
            let remaining = production.body.count - start
            if remaining == 0 {
                perform(machine.requestBodyEnded(), readBuffer: nil)
                return
            }
            let end = start + min(settings.requestBodyPartSize, remaining)
            production.part = production.body[start..<end]
            production.offset = end
            perform(machine.requestBodyPartAvailable(byteCount: end - start), readBuffer: nil)
            production.part = []
        }
    }

    /// A piece of the source arrived: offered now if the machine wants body, else kept.
    private func partArrived(_ result: Result<[UInt8], any Error>, exchange number: UInt64) {
        guard exchange?.number == number, let production = exchange?.production else { return }
        production.awaitingPart = false
        production.pendingPart = result
        produceBody()
    }

    /// Offers a piece of the source to the machine: bytes, the end, or the source's failure
    /// (the consumer then ends the request).
    private func offer(_ result: Result<[UInt8], any Error>) {
        switch result {
        case .success(let bytes) where bytes.isEmpty:
            perform(machine.requestBodyEnded(), readBuffer: nil)
        case .success(let bytes):
            exchange?.production?.part = bytes[...]
            perform(machine.requestBodyPartAvailable(byteCount: bytes.count), readBuffer: nil)
            exchange?.production?.part = []
        case .failure(let error):
            exchange?.production?.producing = false
            exchange?.consumer.requestBodyFailed(error)
        }
    }

    private func cancelContinueTimerIfScheduled() {
        exchange?.production?.continueTimer?.cancel()
        exchange?.production?.continueTimer = nil
    }

    private func continueTimerFired() {
        guard let production = exchange?.production, production.continueTimer != nil else { return }
        production.continueTimer = nil
        perform(machine.continueTimerFired(), readBuffer: nil)
    }

    /// When `current` must next be checked, seen at `now`: its deadline, or the end of its idle
    /// period (counted from now while the consumer holds reading paused: that time is not idle
    /// on the peer's account); nil when neither applies.
    private func nextCheck(of current: Exchange, at now: Deadline) -> Deadline? {
        var due = current.deadline == .distantFuture ? nil : current.deadline
        if let idleTimeout = settings.idleTimeout {
            let idleDue = current.isConsumerFull ? now + idleTimeout : current.lastProgress + idleTimeout
            due = min(due ?? idleDue, idleDue)
        }
        return due
    }

    /// Makes sure the watchdog fires by `due`: an armed watchdog due no later is kept (it will
    /// look again when it fires), an armed later one is replaced.
    private func armWatchdog(at due: Deadline) {
        watchdog.arm(at: due, on: channel.loop) { [self] in watchdogFired() }
    }

    /// Fails the request in progress if its deadline passed or nothing moved for `idleTimeout`;
    /// otherwise arms again for when one of them could be due.
    ///
    /// An idle period that ran out is confirmed once before it fails the request: the loop
    /// runs timers after an iteration's I/O, so when that iteration was long (a busy or starved
    /// loop) the peer's bytes may be waiting in the socket, unread, while the timer says idle.
    /// A watchdog armed for now fires after the next poll's reads, which either find those
    /// bytes (progress) or confirm the silence. A deadline is not confirmed: it is a deadline.
    private func watchdogFired() {
        watchdog.fired()
        guard let current = exchange else { return }
        let now = Deadline.now()
        guard let due = nextCheck(of: current, at: now) else { return }
        guard now >= due else {
            exchange?.isConfirmingIdle = false
            return armWatchdog(at: due)
        }
        if now < current.deadline, !current.isConfirmingIdle {
            exchange?.isConfirmingIdle = true
            return armWatchdog(at: now + .milliseconds(1))
        }
        perform(machine.requestTimedOut(), readBuffer: nil)
    }

    private func closeChannel() {
        // `close()` calls `streamClosed` at once, which reports to the owner.
        channel.close()
    }

    private func reportClosed(error: StreamChannelError?) {
        guard !closeReported else { return }
        closeReported = true
        channel.loop.execute { [self] in owner?.connectionClosed(self, error: error) }
    }
}
