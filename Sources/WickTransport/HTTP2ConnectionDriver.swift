// Runs one HTTP/2 connection state machine on one stream channel, on the channel's loop.
import WickCore
import WickHTTP1
package import WickHTTP2
import WickReactor
import WickTLS

/// Performs what `HTTP2ConnectionStateMachine` decides, on one `StreamChannel`, for many
/// requests at once: it opens a stream per request, produces request bodies as the send windows
/// allow, hands each stream's events to its `HTTP2StreamConsumer`, reports consumption back to
/// the machine (which reopens the receive windows: backpressure), writes the machine's pending
/// frames after every input, and tells its `HTTP2ConnectionDriverOwner` when the connection is
/// ready, when a stream's slot frees, when the server goes away and when the connection closes.
/// The machine decides everything about the protocol; the driver only moves bytes and events.
///
/// **Backpressure.** A consumer that says it is full (`consumerBecameFull`) gets nothing more
/// until it asks again: the stream's later body, trailers and end wait here, unreported as
/// consumed, so the server stops once the stream's window is used up (one window per stream,
/// `connectionWindowSize` in all) while the connection's other streams go on.
///
/// **Liveness.** One connection timer, armed for the machine's `nextLivenessCheck`, lets the
/// machine check its SETTINGS ACK deadline and send PINGs on a connection nothing was read from
/// for `pingInterval` (rule 12); a missed deadline closes the connection and fails its streams
/// with `.connectionUnresponsive`. Reads only move the check later, so a busy connection costs
/// one early wake-up per interval, not a timer operation per read.
///
/// **Ends.** A stream ends once: in full when the machine closes it (or the server's
/// RST_STREAM NO_ERROR follows a complete response), or with an `HTTP2StreamFailure`. Cancelling
/// resets that stream only. A connection error or the channel's close fails every open stream.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every stored `var` is read and
/// written only on `channel.loop`'s thread. `init` and every method trap elsewhere or are called
/// by the channel and timers there. `Sendable` only lets timer closures and `loop.execute`
/// carry the driver back to its own loop.
package final class HTTP2ConnectionDriver: StreamChannelDelegate, @unchecked Sendable {
    /// The driver's bounds.
    package struct Settings: Sendable {
        /// The HTTP/2 codec's limits (header list, frame size, windows, streams, floods).
        package var configuration = HTTP2Configuration()
        /// The most request-body bytes asked of a body source at once. Default 64 KiB.
        package var requestBodyPartSize = 64 * 1024
        /// The longest a stream may go without a frame of its own read or a body byte of it
        /// written; past it the stream fails with `.timedOut` (and is reset). Time its consumer
        /// holds it full does not count. nil: only the request's deadline.
        package var idleTimeout: Duration?

        package init() {}
    }

    /// A response event held back while the consumer is full.
    private enum HeldDelivery {
        case body(ArraySlice<UInt8>)
        case trailers(HTTPHeaders)
        case end
    }

    /// One request in progress. A class, so that the many small updates a stream gets per
    /// request (progress, byte counts, flags) change it in place: a large struct inside
    /// `streams` would be moved through Dictionary's modify coroutines on each, which allocate
    /// their frames (three mallocs per update, measured).
    private final class Stream {
        let consumer: any HTTP2StreamConsumer
        /// The request body not yet queued (all of it for a body given as bytes).
        var body: ArraySlice<UInt8>
        /// A body pulled piece by piece instead of `body`.
        let source: (any TransportBodySource)?
        /// A piece was asked of `source` and has not arrived.
        var awaitingPart = false
        /// The client's side is still open: body or its end still to send.
        var isSending: Bool
        let decodingLimits: ContentDecoderLimits?
        var decoder: ContentDecoder?
        /// The consumer said it is full; deliveries wait in `held`.
        var isConsumerFull = false
        var held: [HeldDelivery] = []
        var responseStarted = false
        /// Request body bytes queued, plus one for the head: the replay decision needs only
        /// whether anything was sent.
        var requestBytesWritten = 0
        /// Response body bytes received (before decoding) and the final head's decoded field bytes.
        var responseBytesReceived = 0
        /// When the stream fails with `.timedOut` (`.distantFuture`: never).
        let deadline: Deadline
        /// When a frame of the stream was last read or a body byte of it written.
        var lastProgress = Deadline.now()
        /// `finish` removed it from `streams`: nothing more reaches its consumer. Checked instead
        /// of looking the stream up again (each lookup hashes its identifier).
        var isEnded = false

        init(
            consumer: any HTTP2StreamConsumer, body: ArraySlice<UInt8>, source: (any TransportBodySource)?,
            isSending: Bool, decodingLimits: ContentDecoderLimits?, deadline: Deadline
        ) {
            self.consumer = consumer
            self.body = body
            self.source = source
            self.isSending = isSending
            self.decodingLimits = decodingLimits
            self.deadline = deadline
        }
    }

    let channel: any StreamChannel
    let settings: Settings
    /// The channel's details, read once: they never change while it is open.
    private(set) lazy var connectionDetails = channel.connectionDetails
    /// The pool's side of this connection; weak because the owner holds its drivers.
    weak var owner: (any HTTP2ConnectionDriverOwner)?

    @exclusivity(unchecked) private var machine: HTTP2ConnectionStateMachine
    @exclusivity(unchecked) private var streams: [HTTP2StreamID: Stream] = [:]
    /// Callers that waited for this connection's responses inline (`ExchangeCarrier`).
    @exclusivity(unchecked) var inlineWaits = InlineWaitHistory()
    /// The connection's one timer for the deadline and idle checks (`watchdogFired`).
    @exclusivity(unchecked) private var watchdog = ConnectionWatchdog()
    /// The events of a read, emptied and kept for the next (`streamRead`).
    @exclusivity(unchecked) private var eventBuffer: [HTTP2ConnectionEvent] = []
    /// The server's first SETTINGS arrived and the owner was told.
    @exclusivity(unchecked) private var isReady = false
    /// The stream capacity last reported to the owner.
    @exclusivity(unchecked) private var reportedCapacity = 0
    @exclusivity(unchecked) private var isChannelClosed = false
    @exclusivity(unchecked) private var closeReported = false
    /// `closeAfterFlush` has scheduled the channel's close.
    @exclusivity(unchecked) private var isCloseScheduled = false
    /// Streams whose body production waits for the channel to become writable.
    @exclusivity(unchecked) private var waitingForWritable: Set<HTTP2StreamID> = []
    /// The connection's liveness timer (`livenessTimerFired`), armed while the machine has a
    /// check due.
    @exclusivity(unchecked) private var livenessTimer: Scheduled?

    /// A driver for a connected, not yet started channel. Call on the channel's loop, then
    /// `start()`.
    init(channel: any StreamChannel, settings: Settings = Settings(), owner: (any HTTP2ConnectionDriverOwner)?) {
        channel.loop.preconditionInEventLoop()
        self.channel = channel
        self.settings = settings
        self.owner = owner
        machine = HTTP2ConnectionStateMachine(configuration: settings.configuration)
    }

    /// Starts reading and writes the client preface and SETTINGS. Call once, on the loop.
    func start() {
        channel.loop.preconditionInEventLoop()
        channel.start(delegate: self)
        machine.start(at: .now())
        flush()
        armLivenessTimer()
    }

    /// The streams open now (requests under way on this connection).
    var openStreamCount: Int { streams.count }

    /// How many concurrent streams the connection takes: the smaller of the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS and the configuration's own limit.
    private var streamCapacity: Int {
        min(settings.configuration.maxConcurrentStreams, machine.remoteSettings.maxConcurrentStreams ?? Int.max)
    }

    // MARK: - Commands

    /// Opens a stream for `head` and sends `body` (or `source`'s pieces) on it. The consumer
    /// hears the response and then exactly one `streamFinished`; a request the connection
    /// refuses finishes at once with `.refused` (nothing written).
    /// - Parameter decoding: decode the response body's codings within these limits; nil
    ///   passes it through.
    /// - Parameter deadline: when the stream fails with `.timedOut` (and is reset).
    /// - Parameter handle: the exchange's handle of the stream; it learns the stream's identifier.
    func execute(
        _ head: HTTP2RequestHead, body: [UInt8], source: (any TransportBodySource)?, decoding: ContentDecoderLimits?,
        deadline: Deadline, handle: HTTP2StreamHandle, consumer: any HTTP2StreamConsumer
    ) {
        channel.loop.preconditionInEventLoop()
        let hasBody = source != nil || !body.isEmpty
        let streamID: HTTP2StreamID
        do {
            streamID = try machine.openStream(head, endStream: !hasBody)
        } catch {
            if error == .streamIDsExhausted {
                // The connection can open no more streams: it goes away once its streams end.
                machine.closeGracefully()
                flush()
                reportGoingAway()
            }
            reportStreamReleased()
            consumer.streamFinished(failure: .refused(error), requestBytesWritten: 0, responseBytesReceived: 0)
            closeIfFinished()
            return
        }
        handle.streamID = streamID
        let stream = Stream(
            consumer: consumer, body: body[...], source: source, isSending: hasBody, decodingLimits: decoding,
            deadline: deadline)
        // Counted as one byte: what matters to the replay decision is that something was sent.
        stream.requestBytesWritten = 1
        streams[streamID] = stream
        armWatchdog(streamID)
        if !hasBody { consumer.requestSent() }
        flush()
        if hasBody { produceBody(streamID) }
    }

    /// Cancels a stream: RST_STREAM CANCEL for it alone, and it finishes with `.cancelled`.
    func cancelStream(_ streamID: HTTP2StreamID) {
        channel.loop.preconditionInEventLoop()
        fail(streamID, .cancelled, reset: true)
        closeIfFinished()
    }

    /// The stream's consumer cannot take more for now: its deliveries wait, unconsumed.
    func consumerBecameFull(on streamID: HTTP2StreamID) {
        channel.loop.preconditionInEventLoop()
        streams[streamID]?.isConsumerFull = true
    }

    /// The stream's consumer can take more: what waited is delivered (and reported consumed).
    func consumerWantsMore(on streamID: HTTP2StreamID) {
        channel.loop.preconditionInEventLoop()
        guard let stream = streams[streamID], stream.isConsumerFull else { return }
        stream.isConsumerFull = false
        // The idle period starts again now that the consumer reads.
        stream.lastProgress = .now()
        let held = stream.held
        stream.held = []
        for (index, delivery) in held.enumerated() {
            // A delivery may end the stream (and remove it) or fill the consumer again.
            guard !stream.isEnded else { return }
            if stream.isConsumerFull {
                stream.held.append(contentsOf: held[index...])
                break
            }
            deliver(delivery, to: stream, id: streamID)
        }
        if !stream.isEnded { stream.consumer.responseReadComplete() }
        flush()
        closeIfFinished()
    }

    /// Closes the connection (the owner asked) once what is queued is written, in the loop's
    /// next iteration: every stream still open then fails with `.connectionClosed`; the owner
    /// hears `connectionClosed` unless it already did.
    func close() {
        channel.loop.preconditionInEventLoop()
        flush()
        closeAfterFlush()
    }

    // MARK: - Channel events

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        guard !isChannelClosed else { return }
        // Taken out while in use, so a read that handling an event causes gets an array of its own.
        var events: [HTTP2ConnectionEvent] = []
        swap(&events, &eventBuffer)
        let now = Deadline.now()
        // SAFETY: `bytes` is the channel's read buffer, valid for this call; the machine copies
        // what it is given into its own buffer before returning.
        bytes.withUnsafeBufferPointer { machine.bytesReceived($0, at: now, into: &events) }
        for event in events { handle(event) }
        events.removeAll(keepingCapacity: true)
        swap(&events, &eventBuffer)
        flush()
        closeIfFinished()
    }

    /// Every stream hears that the read batch is over, a full one too: the delivery that made
    /// its consumer full is one its reader has not been woken for yet, and a reader that is
    /// never woken never drains, so its consumer would never ask for more (the stream stalled
    /// until the server gave up). A consumer with nothing new wakes no one.
    func streamReadComplete(_ stream: any StreamChannel) {
        for current in streams.values { current.consumer.responseReadComplete() }
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        guard !isChannelClosed else { return }
        channel.close()
    }

    func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool) {
        guard !isChannelClosed, isWritable else { return }
        let waiting = waitingForWritable.sorted()
        waitingForWritable = []
        for streamID in waiting { produceBody(streamID) }
        closeIfFinished()
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        isChannelClosed = true
        livenessTimer?.cancel()
        livenessTimer = nil
        watchdog.cancel()
        for event in machine.connectionClosed() { handle(event, channelError: error) }
        // Streams the machine no longer knew (ended on its side, waiting on a full consumer).
        for streamID in streams.keys.sorted() { fail(streamID, .connectionClosed(error), reset: false) }
        reportClosed(error: error)
    }

    // MARK: - Events

    /// Hands one machine event to the stream it concerns, or to the owner.
    private func handle(_ event: HTTP2ConnectionEvent, channelError: StreamChannelError? = nil) {
        // The stream a response event concerns, looked up once for the whole event.
        let stream = event.progressingStream.flatMap { streams[$0] }
        if settings.idleTimeout != nil, let stream { stream.lastProgress = .now() }
        switch event {
        case .informationalResponse:
            if let stream { markResponseStarted(stream) }
        case .response(let streamID, let head, _):
            guard let stream else { return }
            markResponseStarted(stream)
            responseHeadArrived(head, to: stream, id: streamID)
        case .body(let streamID, let bytes, _):
            guard let stream else { return }
            stream.responseBytesReceived += bytes.count
            deliverOrHold(.body(bytes), to: stream, id: streamID)
        case .trailers(let streamID, let headers):
            if let stream { deliverOrHold(.trailers(headers), to: stream, id: streamID) }
        case .streamClosed(let streamID):
            if let stream { deliverOrHold(.end, to: stream, id: streamID) }
        case .streamReset(let streamID, _, responseComplete: true):
            streams[streamID]?.isSending = false
            deliverOrHold(.end, on: streamID)
        case .streamReset(let streamID, let code, responseComplete: false):
            fail(streamID, .reset(code), reset: false)
        case .streamFailed(let streamID, let error):
            fail(streamID, .protocolError(error), reset: false)
        case .sendWindowAvailable(let streamID):
            produceBody(streamID)
        case .remoteSettingsChanged:
            settingsChanged()
        case .pingAcknowledged:
            break
        case .goAway(let goAway):
            // The owner hears first, so a stream sent again is not offered this connection.
            reportGoingAway()
            for streamID in goAway.unprocessedStreams { fail(streamID, .goAway(goAway.errorCode), reset: false) }
        case .connectionFailed(let error, let open):
            let failure: HTTP2StreamFailure =
                error.isLivenessFailure ? .connectionUnresponsive(error) : .protocolError(error)
            for streamID in open { fail(streamID, failure, reset: false) }
            reportGoingAway()
            flush()
            closeAfterFlush()
        case .connectionClosed(let open):
            for streamID in open { fail(streamID, .connectionClosed(channelError), reset: false) }
        }
    }

    private func markResponseStarted(_ stream: Stream) {
        guard !stream.isEnded, !stream.responseStarted else { return }
        stream.responseStarted = true
        stream.consumer.responseStarted()
    }

    /// The final head: set up decoding (a body in codings the decoder cannot take passes
    /// through), then tell the consumer.
    private func responseHeadArrived(_ head: HTTP2ResponseHead, to stream: Stream, id streamID: HTTP2StreamID) {
        guard !stream.isEnded else { return }
        // The head's decoded field bytes: HPACK's compressed size is not kept per stream.
        stream.responseBytesReceived += head.fieldBytes
        var isBodyDecoded = false
        if let limits = stream.decodingLimits, head.contentLength != 0,
            head.headers.contains(name: "content-encoding")
        {
            do {
                let decoder = try ContentDecoder(headers: head.headers, limits: limits)
                if decoder.decodesBody {
                    stream.decoder = decoder
                    isBodyDecoded = true
                }
            } catch {
                return fail(streamID, .undecodableBody(error), reset: true)
            }
        }
        stream.consumer.responseHead(
            status: head.status, headers: head.headers, contentLength: head.contentLength, isBodyDecoded: isBodyDecoded)
    }

    private func deliverOrHold(_ delivery: HeldDelivery, on streamID: HTTP2StreamID) {
        guard let stream = streams[streamID] else { return }
        deliverOrHold(delivery, to: stream, id: streamID)
    }

    private func deliverOrHold(_ delivery: HeldDelivery, to stream: Stream, id streamID: HTTP2StreamID) {
        guard !stream.isEnded else { return }
        if stream.isConsumerFull || !stream.held.isEmpty {
            // Held bytes are copied out of the machine's read buffer, which they would pin.
            if case .body(let bytes) = delivery {
                stream.held.append(.body(Array(bytes)[...]))
            } else {
                stream.held.append(delivery)
            }
        } else {
            deliver(delivery, to: stream, id: streamID)
        }
    }

    /// Gives the consumer one delivery: body bytes (decoded if asked, then reported consumed,
    /// which reopens the windows), trailers, or the end.
    private func deliver(_ delivery: HeldDelivery, to stream: Stream, id streamID: HTTP2StreamID) {
        guard !stream.isEnded else { return }
        switch delivery {
        case .body(let bytes):
            if let decoder = stream.decoder {
                do {
                    try decoder.decode(bytes[...]) { piece in
                        // SAFETY: `piece` is pinned for the closure; the consumer borrows it for the call.
                        piece.withUnsafeBytes { stream.consumer.responseBody($0) }
                    }
                } catch {
                    return fail(streamID, .undecodableBody(error), reset: true)
                }
            } else {
                // SAFETY: `bytes` is pinned for the closure; the consumer borrows it for the call.
                bytes.withUnsafeBytes { stream.consumer.responseBody($0) }
            }
            machine.bodyConsumed(bytes.count, on: streamID)
        case .trailers(let headers):
            stream.consumer.responseTrailers(headers)
        case .end:
            if let decoder = stream.decoder {
                do throws(ContentDecodingError) {
                    try decoder.finish()
                } catch {
                    return fail(streamID, .undecodableBody(error), reset: false)
                }
            }
            if stream.isSending {
                // The server answered in full before the body was sent (RFC 9113 §8.1): stop it.
                machine.resetStream(streamID, code: .cancel)
            }
            finish(streamID, failure: nil)
        }
    }

    private func settingsChanged() {
        let capacity = streamCapacity
        if !isReady {
            isReady = true
            reportedCapacity = capacity
            channel.loop.execute { [self] in
                guard !isChannelClosed else { return }
                owner?.connectionReady(self, streamCapacity: capacity)
            }
        } else if capacity != reportedCapacity {
            reportedCapacity = capacity
            channel.loop.execute { [self] in
                guard !isChannelClosed else { return }
                owner?.streamCapacityChanged(self, streamCapacity: capacity)
            }
        }
    }

    // MARK: - Request bodies

    /// Queues as much of the stream's body as the windows allow; asks the source for more when
    /// the bytes in hand are sent.
    private func produceBody(_ streamID: HTTP2StreamID) {
        while let stream = streams[streamID], stream.isSending {
            guard channel.isWritable else {
                waitingForWritable.insert(streamID)
                return
            }
            if stream.body.isEmpty, let source = stream.source {
                guard !stream.awaitingPart else { return }
                stream.awaitingPart = true
                source.read(maximum: settings.requestBodyPartSize) { [self] result in
                    channel.loop.execute { [self] in partArrived(result, on: streamID) }
                }
                return
            }
            let isLast = stream.source == nil
            let (sent, closed) = machine.sendBody(stream.body, on: streamID, endStream: isLast)
            let allSent = sent == stream.body.count
            stream.body = stream.body.dropFirst(sent)
            stream.requestBytesWritten += sent
            if sent > 0, settings.idleTimeout != nil { stream.lastProgress = .now() }
            if allSent && isLast {
                stream.isSending = false
                stream.consumer.requestSent()
            }
            flush()
            if closed { deliverOrHold(.end, on: streamID) }
            // Fewer bytes than offered: the machine reports `sendWindowAvailable` when more may go.
            if !allSent || isLast { return }
        }
    }

    /// A piece of a stream's source arrived: the bytes are sent, the end ends the stream, a
    /// failure goes to the consumer (which cancels the stream).
    private func partArrived(_ result: Result<[UInt8], any Error>, on streamID: HTTP2StreamID) {
        guard let stream = streams[streamID], stream.awaitingPart else { return }
        stream.awaitingPart = false
        switch result {
        case .success(let bytes) where bytes.isEmpty:
            let (_, closed) = machine.sendBody([], on: streamID, endStream: true)
            stream.isSending = false
            stream.consumer.requestSent()
            flush()
            if closed { deliverOrHold(.end, on: streamID) }
            closeIfFinished()
        case .success(let bytes):
            stream.body = bytes[...]
            produceBody(streamID)
            closeIfFinished()
        case .failure(let error):
            stream.consumer.requestBodyFailed(error)
        }
    }

    // MARK: - Ends

    /// Ends a stream with `failure`, resetting it first when `reset` (the client's decision:
    /// cancelled, timed out, undecodable) and the machine still has it open.
    private func fail(_ streamID: HTTP2StreamID, _ failure: HTTP2StreamFailure, reset: Bool) {
        guard streams[streamID] != nil else { return }
        if reset {
            machine.resetStream(streamID, code: .cancel)
            flush()
        }
        finish(streamID, failure: failure)
    }

    /// Removes the stream, queues the owner's news of the free slot, then tells the consumer.
    private func finish(_ streamID: HTTP2StreamID, failure: HTTP2StreamFailure?) {
        guard let ended = streams.removeValue(forKey: streamID) else { return }
        ended.isEnded = true
        waitingForWritable.remove(streamID)
        reportStreamReleased()
        ended.consumer.streamFinished(
            failure: failure, requestBytesWritten: ended.requestBytesWritten,
            responseBytesReceived: ended.responseBytesReceived)
    }

    /// Closes the channel once the machine is finished (going away with no stream open, or
    /// failed) and no stream waits here for its consumer. Called at the end of each input, never
    /// in the middle of a batch of events, whose later events may still concern open streams.
    private func closeIfFinished() {
        guard machine.isFinished, streams.isEmpty else { return }
        closeAfterFlush()
    }

    /// Closes the channel in the loop's next iteration, after the loop has flushed what was
    /// just written (the GOAWAY that ends a failed or finished connection): a channel's `close()`
    /// drops bytes still queued. Best effort: the frames are lost if the socket buffer is full.
    private func closeAfterFlush() {
        guard !isChannelClosed, !isCloseScheduled else { return }
        isCloseScheduled = true
        channel.loop.schedule(at: .now()) { [self] in
            guard !isChannelClosed else { return }
            channel.close()
        }
    }

    // MARK: - Timers

    /// When `stream` must next be checked, seen at `now`: its deadline, or the end of its idle
    /// period (counted from now while its consumer is full); nil when neither applies.
    private func nextCheck(of stream: Stream, at now: Deadline) -> Deadline? {
        var due = stream.deadline == .distantFuture ? nil : stream.deadline
        if let idleTimeout = settings.idleTimeout {
            let idleDue = stream.isConsumerFull ? now + idleTimeout : stream.lastProgress + idleTimeout
            due = min(due ?? idleDue, idleDue)
        }
        return due
    }

    /// Makes sure the watchdog fires by the time `streamID` must be checked.
    private func armWatchdog(_ streamID: HTTP2StreamID) {
        guard let stream = streams[streamID], let due = nextCheck(of: stream, at: .now()) else { return }
        armWatchdog(at: due)
    }

    /// Makes sure the watchdog fires by `due`: an armed watchdog due no later is kept (it will
    /// look again when it fires), an armed later one is replaced.
    private func armWatchdog(at due: Deadline) {
        watchdog.arm(at: due, on: channel.loop) { [self] in watchdogFired() }
    }

    /// Fails each stream whose deadline passed or that made no progress for `idleTimeout`, and
    /// arms again for the earliest time one of the others could be due (progress only moves
    /// `lastProgress`, so a busy stream costs no timer operations).
    private func watchdogFired() {
        watchdog.fired()
        guard !isChannelClosed else { return }
        let now = Deadline.now()
        var next: Deadline?
        for streamID in streams.keys.sorted() {
            guard let stream = streams[streamID], let due = nextCheck(of: stream, at: now) else { continue }
            if now >= due {
                fail(streamID, .timedOut, reset: true)
            } else {
                next = min(next ?? due, due)
            }
        }
        if let next { armWatchdog(at: next) }
        closeIfFinished()
    }

    private func armLivenessTimer() {
        guard !isChannelClosed, let due = machine.nextLivenessCheck else { return }
        livenessTimer = channel.loop.schedule(at: due) { [self] in livenessTimerFired() }
    }

    /// Lets the machine check its liveness deadlines (rule 12): a PING may go out, or the
    /// connection fails; then arms again for the next check.
    private func livenessTimerFired() {
        livenessTimer = nil
        guard !isChannelClosed else { return }
        for event in machine.checkLiveness(at: .now()) { handle(event) }
        flush()
        closeIfFinished()
        armLivenessTimer()
    }

    // MARK: - Output and owner

    /// Writes the machine's pending frames; a failed write closes the connection (every open
    /// stream then fails with the error).
    private func flush() {
        guard !isChannelClosed, machine.hasPendingOutput else { return }
        let output = machine.takePendingOutput()
        do {
            try channel.write(output[...])
        } catch {
            for streamID in streams.keys.sorted() { fail(streamID, .writeFailed(error), reset: false) }
            channel.close()
        }
    }

    // A release or GOAWAY is reported even when the channel closed since: the owner hears
    // `connectionClosed` after it (queued later), and until then a request must not be given
    // a stream the connection no longer has.

    private func reportStreamReleased() {
        // The last open stream ended: the connection is idle until the next request.
        if streams.isEmpty && !isChannelClosed { channel.streamBecameIdle() }
        channel.loop.execute { [self] in owner?.streamReleased(self) }
    }

    private func reportGoingAway() {
        channel.loop.execute { [self] in owner?.connectionGoingAway(self) }
    }

    private func reportClosed(error: StreamChannelError?) {
        guard !closeReported else { return }
        closeReported = true
        channel.loop.execute { [self] in owner?.connectionClosed(self, error: error) }
    }
}
