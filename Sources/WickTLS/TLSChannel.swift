// A TLS connection over a reactor channel, or inside another TLS connection: handshake, trust
// evaluation, then plaintext in and out.
//
// Rules:
// - Phases: handshaking → evaluating → ready → active → (closing) → closed. The channel is
//   handed to its user only in `ready`, after trust evaluation succeeded; `write` traps before
//   that, so no application byte can leave before the server is trusted.
// - The socket is read during the handshake only. It is paused from the end of the handshake
//   until `start(delegate:)` (a server cannot make us buffer while trust is evaluated); bytes
//   that came with the handshake's last read wait in the engine and are delivered after start.
// - Backpressure: `pauseReading` pauses the socket. What the engine already holds (at most one
//   socket read, the loop's read buffer, plus a partial record) is delivered after resume.
// - The end: `close_notify` from the peer gives `streamReadEOF`, then the channel answers it
//   and closes (`streamClosed(error: nil)`). A TCP EOF without it closes with
//   `.tls(.truncated)` and never `streamReadEOF`. `close()` queues `close_notify` and a FIN,
//   reports `streamClosed(nil)` at once, and lets the socket finish in the background: it is
//   closed when the peer's FIN arrives, or after `closeTimeout`.
// - Buffers: records are decrypted one at a time into the loop's scratch buffer, shared by the
//   loop's connections (or into the delegate's destination, when it offers one); once a read
//   batch leaves nothing pending, the engine's large ciphertext buffers are freed
//   (`releaseBuffersIfIdle`), and OpenSSL's record buffers once the connection has no exchange
//   in flight (`streamBecameIdle`), so an idle pooled connection holds at most
//   `TLSByteBuffers.keptIdleCapacity` twice, kept so that steady use allocates none per request.
// - The carrier: the socket, or another TLS channel (TLS inside TLS, for an https origin through
//   an HTTPS proxy). Everything above speaks of "the socket"; over a TLS carrier it is that
//   channel, whose plaintext is this one's ciphertext, and whose `close_notify` is this one's
//   end of stream.
// - Handing back: `detachDelegate()` returns an active channel to `ready`, so the next layer
//   (TLS to an origin, after a proxy's CONNECT answer came over this channel) can start it.
// - Writing: small writes made during a loop iteration are gathered and encrypted once, at the
//   iteration's end (`IterationEndFlushing`), before the socket's own flush: the requests an
//   iteration starts on one HTTP/2 connection leave in one record, not one record (and one
//   encryption, and one record for the server to decrypt) each. Once a record's worth (16 KiB)
//   is gathered it is encrypted at once, so a body's bulk meets the socket's watermarks as
//   before. Closing, detaching and going idle encrypt what is gathered first; a failure drops it.
// - Exclusivity: the fields every request's bytes pass through (`state`, the delivery flags,
//   `pendingPlaintext`) are `@exclusivity(unchecked)`, so Swift does not check each access at
//   run time (about 1,000 instructions an HTTPS request, in the thread-local access set). What
//   makes that safe: they are touched on the loop's thread only, and never passed `inout` or
//   mutated through a closure that could reach this channel again; `switch state` copies the
//   state out before any case calls out. A switch that needs no payload reads `stage`.
public import WickCore
public import WickReactor

/// A client TLS connection on a reactor `Channel`, or inside another `TLSChannel` (any
/// `TLSCarrier`), made by `TLSChannel.establish` over a connected carrier (WickTransport's
/// `TransportConnector` does that for every TLS connection) once the handshake and trust
/// evaluation have succeeded. Its API is the plain channel's, as a `StreamChannel`, and it is a
/// `TLSCarrier` itself: an HTTPS proxy's channel carries the CONNECT request, then the origin's
/// TLS session.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): `loop`, `channel`, `engine`,
/// `host` and `closeTimeout` are immutable. Every `var` is read and written only on `loop`'s
/// thread: public members begin with `loop.preconditionInEventLoop()`; internal ones run from
/// the channel's delegate callbacks, from timers and tasks scheduled on `loop`, or from those
/// members. Trust evaluation on a pool thread receives only a `ServerTrust` value and hands its
/// result back through `loop.execute`. `Sendable` lets the channel travel to other threads,
/// which may only use it to hop back onto its loop.
public final class TLSChannel: @unchecked Sendable, TLSCarrier, CustomStringConvertible {
    /// Reports the end of establishment, on the loop.
    typealias Completion = (Result<TLSChannel, StreamChannelError>) -> Void

    /// What establishment carries until it ends. A class, so `State` holds references only
    /// and is copied inline: each read of the state on a read or write (`switch state`) copied
    /// the evaluator's existential and the rest through `State`'s value witnesses.
    private final class Establishing {
        let evaluator: any ServerTrustEvaluating
        let pool: TrustEvaluationPool
        let started: Deadline
        let timer: Scheduled
        let completion: Completion

        init(
            evaluator: any ServerTrustEvaluating, pool: TrustEvaluationPool, started: Deadline, timer: Scheduled,
            completion: @escaping Completion
        ) {
            self.evaluator = evaluator
            self.pool = pool
            self.started = started
            self.timer = timer
            self.completion = completion
        }
    }

    private enum State {
        case handshaking(Establishing)
        case evaluating(Establishing)
        /// Trusted; waiting for `start(delegate:)`.
        case ready
        case active(any StreamChannelDelegate)
        /// Our `close_notify` and FIN are queued; the user has been told; the socket finishes.
        case closing
        /// `error` is reported to a `start` that comes after the end (boxed: an error is rare,
        /// and its size would make every copy of the state go through value witnesses).
        indirect case closed(StreamChannelError?)

        /// The case without its payload.
        var stage: Stage {
            switch self {
            case .handshaking: .handshaking
            case .evaluating: .evaluating
            case .ready: .ready
            case .active: .active
            case .closing: .closing
            case .closed: .closed
            }
        }
    }

    /// `State`'s cases without payloads, kept beside it (`stage`): the per-record paths ask
    /// only which phase the channel is in, and a switch over `state` copies its payload (a
    /// retain and release of the delegate or the establishment's closures) to answer.
    private enum Stage {
        case handshaking, evaluating, ready, active, closing, closed
    }

    /// The most a record's ciphertext exceeds its plaintext: OpenSSL's record header (5 bytes)
    /// plus `SSL3_RT_MAX_ENCRYPTED_OVERHEAD` (256 + 64: padding, MAC, explicit IV or tag).
    static let maximumRecordOverhead = 5 + 256 + 64
    /// The most plaintext one record carries (TLS's 2^14), so a write of n bytes makes
    /// ⌈n / 2^14⌉ records.
    static let maximumRecordPlaintext = 16_384

    /// The loop that owns this channel.
    public let loop: EventLoop
    /// The socket under the TLS session, or the TLS session this one runs inside.
    let channel: any TLSCarrier
    let engine: TLSEngine
    /// How long `close()` lets the peer answer our FIN before the socket is closed anyway.
    let closeTimeout: Duration

    // Loop-thread only.
    // SAFETY: unchecked exclusivity (the file's "Exclusivity" rule): loop-thread only, never
    // passed inout or mutated across a call that could reach this channel again.
    @exclusivity(unchecked) private var state: State {
        didSet {
            stage = state.stage
            // A closed channel's buffers go with its engine: no timer waits to free them.
            if stage == .closed, let timer = bufferReleaseTimer {
                timer.cancel()
                bufferReleaseTimer = nil
            }
        }
    }
    @exclusivity(unchecked) private var stage: Stage = .handshaking  // `state`'s case
    @exclusivity(unchecked) private var readingPaused = false
    @exclusivity(unchecked) private var isDelivering = false
    @exclusivity(unchecked) private var inSocketRead = false  // plaintext waits for the batch end
    @exclusivity(unchecked) private var batchDelivered = false  // in the socket's current batch
    @exclusivity(unchecked) private var pendingPlaintext: [UInt8] = []  // unencrypted writes
    @exclusivity(unchecked) private var encryptionRequested = false  // `flushAtIterationEnd()` asked

    private var drainScheduled = false
    /// How many times `detachDelegate()` was called: a delegate detached while it was being
    /// delivered to has had its last event, so its batch is not ended for the next delegate.
    private var detachments = 0
    /// The socket reported end of stream (the engine knows too).
    private var socketEnded = false
    /// The socket closed cleanly after its EOF while plaintext may still wait in the engine
    /// (reading was paused); it is delivered, then the truncation or close is reported.
    private var socketGone = false
    private var closeTimer: Scheduled?
    /// No exchange has been in flight since `idleSince` (`streamBecameIdle`; a write ends it).
    @exclusivity(unchecked) private var isStreamIdle = false
    @exclusivity(unchecked) private var idleSince = Deadline.distantPast
    /// Frees the record buffers once the stream has been idle for the engine's delay; armed
    /// at most once per delay, not per exchange.
    @exclusivity(unchecked) private var bufferReleaseTimer: Scheduled?
    /// `connectionDetails` once made (after the handshake).
    private var details: StreamConnectionDetails?
    /// The evaluation that accepted the server, once it has.
    private var evaluatedTrust: EvaluatedServerTrust?

    private init(channel: any TLSCarrier, engine: TLSEngine, closeTimeout: Duration, establishing: Establishing) {
        self.loop = channel.loop
        self.channel = channel
        self.engine = engine
        self.closeTimeout = closeTimeout
        self.state = .handshaking(establishing)
    }

    /// `TLSChannel(localhost over Channel(fd 12 → 127.0.0.1:8443))`.
    public var description: String { "TLSChannel(\(engine.serverHostname) over \(channel))" }

    // MARK: establishing

    /// Runs the TLS handshake and trust evaluation over `channel`, a connected carrier that has
    /// not been started (this starts it): a socket, or a ready `TLSChannel` for TLS inside TLS. `completion` runs once, on the channel's loop, with a
    /// ready `TLSChannel` (start it with `start(delegate:)`) or the failure:
    /// `.tls(.handshakeFailed)`, `.tls(.serverTrustFailed)`, `.tlsTimedOut` at `deadline`, or
    /// `.reactor` if the socket fails. On failure the channel is closed. Call on the loop.
    ///
    /// - Parameters:
    ///   - engine: a client engine for the server's name and port, not yet used.
    ///   - evaluator: the trust policy; where it runs follows `TrustEvaluationSite`.
    ///   - pool: where evaluations that may block run.
    ///   - deadline: when the handshake plus evaluation times out.
    ///   - closeTimeout: how long `close()` waits for the peer's FIN before closing the socket.
    public static func establish(
        over channel: any TLSCarrier, engine: TLSEngine, evaluator: any ServerTrustEvaluating,
        pool: TrustEvaluationPool = .shared, deadline: Deadline, closeTimeout: Duration = .seconds(1),
        _ completion: @escaping (Result<TLSChannel, StreamChannelError>) -> Void
    ) {
        channel.loop.preconditionInEventLoop()
        let box = TimerTarget()
        let timer = channel.loop.schedule(at: deadline) { box.target?.establishmentTimedOut() }
        let tls = TLSChannel(
            channel: channel, engine: engine, closeTimeout: closeTimeout,
            establishing: Establishing(
                evaluator: evaluator, pool: pool, started: .now(), timer: timer, completion: completion))
        box.target = tls
        channel.start(delegate: CarrierEvents(tls))
        tls.advanceHandshake()
    }

    private var establishing: Establishing? {
        switch state {
        case .handshaking(let establishing), .evaluating(let establishing): establishing
        case .ready, .active, .closing, .closed: nil
        }
    }

    private func advanceHandshake() {
        guard case .handshaking = stage else { return }
        let progress: TLSEngine.HandshakeProgress
        do {
            progress = try engine.handshake()
        } catch {
            failEstablishing(.tls(error))
            return
        }
        guard flushEngineOutput(), case .handshaking(let establishing) = state else { return }
        if progress == .complete { handshakeCompleted(establishing) }
    }

    private func handshakeCompleted(_ establishing: Establishing) {
        channel.pauseReading()
        state = .evaluating(establishing)
        let trust = engine.serverTrust
        let evaluator = establishing.evaluator
        guard let context = engine.trustContext else { preconditionFailure("\(self): a client engine has a context") }
        switch TrustEvaluationSite.of(evaluator, context: context) {
        case .inline:
            evaluationFinished(Self.evaluate(evaluator, trust))
        case .pool:
            let loop = self.loop
            let accepted = establishing.pool.submit {
                let result = Self.evaluate(evaluator, trust)
                loop.execute { self.evaluationFinished(result) }
            }
            if !accepted {
                failEstablishing(.tls(.handshakeFailed("the trust evaluation pool has shut down")))
            }
        }
    }

    /// Runs `evaluator`: the record of an accepted evaluation (with what report-only policies
    /// saw), or the refusal, either with OpenSSL's verify result; errors that are not `ServerTrustError` become `.custom`, as in
    /// `TLSEngine.evaluateTrust(using:)`.
    private static func evaluate(_ evaluator: any ServerTrustEvaluating, _ trust: ServerTrust) -> Result<
        EvaluatedServerTrust, ServerTrustError
    > {
        do {
            let reported = try evaluator.evaluateReporting(trust, forHost: trust.host)
            return .success(
                EvaluatedServerTrust(
                    host: trust.host, evaluator: "\(type(of: evaluator))", presentedChain: trust.presentedChain,
                    reportedViolations: reported, openSSLVerifyResult: trust.openSSLVerifyResult))
        } catch {
            var refusal =
                error as? ServerTrustError
                ?? ServerTrustError(host: trust.host, evaluator: "\(type(of: evaluator))", reason: .custom("\(error)"))
            refusal.openSSLVerifyResult = trust.openSSLVerifyResult
            return .failure(refusal)
        }
    }

    private func evaluationFinished(_ result: Result<EvaluatedServerTrust, ServerTrustError>) {
        // Anything else: the timeout or a socket failure ended establishment first.
        guard case .evaluating(let establishing) = state else { return }
        switch result {
        case .success(let record):
            evaluatedTrust = record
            engine.trustEstablished()
            establishing.timer.cancel()
            state = .ready
            establishing.completion(.success(self))
        case .failure(let error):
            engine.trustRefused(.serverTrustFailed(error))
            failEstablishing(.tls(.serverTrustFailed(error)))
        }
    }

    fileprivate func establishmentTimedOut() {
        let phase: StreamChannelError.TLSPhase
        switch stage {
        case .handshaking: phase = .handshake
        case .evaluating: phase = .trustEvaluation
        case .ready, .active, .closing, .closed: return
        }
        guard let establishing else { return }
        failEstablishing(
            .tlsTimedOut(host: engine.serverHostname, phase: phase, after: Deadline.now() - establishing.started))
    }

    /// Ends establishment with `error`: the socket is closed (nothing more is sent) and the
    /// completion hears it.
    private func failEstablishing(_ error: StreamChannelError) {
        guard let establishing else { preconditionFailure("\(self): failEstablishing in state \(state)") }
        establishing.timer.cancel()
        state = .closed(error)
        channel.close()
        engine.releaseBuffersIfIdle()
        establishing.completion(.failure(error))
    }

    // MARK: what the TLS session negotiated

    /// The protocol version negotiated.
    public var negotiatedVersion: TLSVersion? {
        loop.preconditionInEventLoop()
        return engine.negotiatedVersion
    }

    /// The cipher suite negotiated, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`).
    public var negotiatedCipherSuite: String? {
        loop.preconditionInEventLoop()
        return engine.negotiatedCipherSuite
    }

    /// The ALPN protocol the server selected (`http/1.1`), or nil.
    public var negotiatedApplicationProtocol: String? {
        loop.preconditionInEventLoop()
        return engine.negotiatedApplicationProtocol
    }

    /// Whether the handshake resumed a cached session.
    public var isSessionReused: Bool {
        loop.preconditionInEventLoop()
        return engine.isSessionReused
    }

    /// The server's certificates as presented, leaf first.
    public var peerCertificateChain: [Certificate] {
        loop.preconditionInEventLoop()
        return engine.peerCertificateChain
    }

    // MARK: StreamChannel

    /// The address the socket is connected to.
    public var remoteAddress: SocketAddress { channel.remoteAddress }

    /// The socket's addresses with the negotiated version, cipher suite and resumption. Made at the first
    /// call once the channel is handed over (trusted), then kept.
    public var connectionDetails: StreamConnectionDetails {
        loop.preconditionInEventLoop()
        if let details { return details }
        let made = StreamConnectionDetails(
            localAddress: channel.connectionDetails.localAddress, remoteAddress: channel.remoteAddress,
            tlsVersion: engine.negotiatedVersion, tlsCipherSuite: engine.negotiatedCipherSuite,
            serverTrust: evaluatedTrust, tlsSessionResumed: engine.isSessionReused)
        switch stage {
        case .ready, .active: details = made
        case .handshaking, .evaluating, .closing, .closed: break
        }
        return made
    }

    /// The socket under the session (`channel`'s), for a caller that waits for it inline.
    public var readinessDescriptor: Int32? { channel.readinessDescriptor }

    /// Whether the TLS session is open: trusted, and neither closed nor failed.
    public var isOpen: Bool {
        loop.preconditionInEventLoop()
        switch stage {
        case .ready, .active: return true
        case .handshaking, .evaluating, .closing, .closed: return false
        }
    }

    /// The socket's writability (its watermarks count ciphertext); false once closed.
    public var isWritable: Bool {
        loop.preconditionInEventLoop()
        return isOpen && channel.isWritable
    }

    /// Sets the delegate and starts reading: bytes that arrived with the handshake are
    /// delivered first. Call once. If the connection ended before this call (the loop shut
    /// down, the peer reset it, `close()`), the delegate's `streamClosed` is called at once.
    public func start(delegate: any StreamChannelDelegate) {
        loop.preconditionInEventLoop()
        switch state {
        case .ready:
            state = .active(delegate)
            if !readingPaused {
                channel.resumeReading()
                scheduleDrain()
            }
        case .closing:
            delegate.streamClosed(self, error: nil)
        case .closed(let error):
            delegate.streamClosed(self, error: error)
        case .active:
            preconditionFailure("\(self): start(delegate:) called twice")
        case .handshaking, .evaluating:
            preconditionFailure("\(self): start(delegate:) before trust was established")
        }
    }

    /// Queues `bytes` for the socket as TLS records. Small writes are encrypted together at the
    /// end of the loop's iteration (an encryption failure then closes the channel:
    /// `streamClosed` with `.tls`); 16 KiB or more gathered are encrypted at once.
    /// - Throws: `ReactorError.channelClosed` once closed (or failed), `.writeBufferFull` if
    ///   the records could exceed what the carrier takes (`writeCapacity`; over a socket, its
    ///   `maximumBufferedBytes` less what is queued): the check counts the plaintext already
    ///   gathered and the largest possible record overhead, `maximumRecordOverhead` per 16 KiB,
    ///   and nothing is queued then.
    public func write(_ bytes: ArraySlice<UInt8>) throws(ReactorError) {
        loop.preconditionInEventLoop()
        switch stage {
        case .ready, .active: break
        case .closing, .closed: throw .channelClosed
        case .handshaking, .evaluating:
            preconditionFailure("\(self): write before trust was established")
        }
        isStreamIdle = false
        guard !bytes.isEmpty else { return }
        guard Self.ciphertextBound(plaintext: pendingPlaintext.count + bytes.count) <= channel.writeCapacity else {
            throw .writeBufferFull(limit: channel.maximumBufferedBytes)
        }
        if pendingPlaintext.isEmpty && bytes.count >= Self.maximumRecordPlaintext {
            // A full record's worth gains nothing from waiting: encrypted now, uncopied, so the
            // socket's watermarks see it at once (a body written while writable).
            guard encrypt(bytes) else { throw .channelClosed }
            return
        }
        pendingPlaintext.append(contentsOf: bytes)
        if pendingPlaintext.count >= Self.maximumRecordPlaintext {
            guard encryptPending() else { throw .channelClosed }
        } else if !encryptionRequested {
            encryptionRequested = true
            loop.flushAtEndOfIteration(self)
        }
    }

    /// Encrypts the gathered plaintext and queues its records on the socket. Returns false,
    /// the plaintext dropped, when the channel is not open: it closed before, or failed now
    /// (encrypting or queueing; the delegate was told).
    @discardableResult
    private func encryptPending() -> Bool {
        guard !pendingPlaintext.isEmpty else { return true }
        switch stage {
        case .ready, .active: break
        case .handshaking, .evaluating, .closing, .closed:
            pendingPlaintext = []
            return false
        }
        let encrypted = encrypt(pendingPlaintext)
        // Small batches keep their buffer (steady traffic then allocates none); a large one's
        // goes, so an idle connection does not hold it.
        if encrypted && pendingPlaintext.capacity <= Self.keptPlaintextCapacity {
            pendingPlaintext.removeAll(keepingCapacity: true)
        } else {
            pendingPlaintext = []
        }
        return encrypted
    }

    /// Encrypts `plaintext` and queues its records on the socket. Returns false if that failed
    /// (the connection has then been failed and the delegate told).
    private func encrypt(_ plaintext: some Collection<UInt8>) -> Bool {
        do {
            try engine.write(plaintext)
        } catch {
            fail(.tls(error))
            return false
        }
        return flushEngineOutput()
    }

    /// The most gathered-plaintext capacity kept between iterations.
    static let keptPlaintextCapacity = 4_096

    /// The most ciphertext `count` plaintext bytes become.
    static func ciphertextBound(plaintext count: Int) -> Int {
        let records = (count + maximumRecordPlaintext - 1) / maximumRecordPlaintext
        return count + records * maximumRecordOverhead
    }

    /// The most plaintext whose ciphertext is sure to fit in `count` bytes: at most
    /// ⌈count / 2^14⌉ records can be needed, each with its overhead, so
    /// `ciphertextBound(plaintextBound(ciphertext: c)) <= c`.
    static func plaintextBound(ciphertext count: Int) -> Int {
        let records = (count + maximumRecordPlaintext - 1) / maximumRecordPlaintext
        return max(0, count - records * maximumRecordOverhead)
    }

    /// The plaintext `write` accepts now: what the carrier takes, less the largest record
    /// overhead and the plaintext gathered but not yet encrypted.
    public var writeCapacity: Int {
        loop.preconditionInEventLoop()
        return max(0, Self.plaintextBound(ciphertext: channel.writeCapacity) - pendingPlaintext.count)
    }

    /// The socket's limit, which `writeBufferFull` names.
    public var maximumBufferedBytes: Int { channel.maximumBufferedBytes }

    /// `close()`: `close_notify` and a FIN, and `streamClosed(error: nil)` now (a TLS peer need
    /// not go on sending after our `close_notify`, so a half-close has no meaning here).
    public func finishWriting() {
        close()
    }

    /// Returns an active channel to the state `establish` handed it over in: reading stops, the
    /// delegate is dropped (it hears nothing more), and `start(delegate:)` may be called again;
    /// plaintext the engine already holds is delivered to the next delegate. An HTTPS proxy's
    /// channel is handed back this way once the proxy has answered CONNECT on it. Traps unless
    /// the channel is active.
    public func detachDelegate() {
        loop.preconditionInEventLoop()
        guard case .active = stage else { preconditionFailure("\(self): detachDelegate() in state \(state)") }
        // What the delegate wrote goes before the next layer's bytes; a failure told it.
        guard encryptPending() else { return }
        state = .ready
        readingPaused = false
        detachments += 1
        batchDelivered = false
        channel.pauseReading()
    }

    /// Stops reading: the socket is paused, and plaintext the engine holds waits too.
    public func pauseReading() {
        loop.preconditionInEventLoop()
        readingPaused = true
        switch stage {
        case .ready, .active: channel.pauseReading()
        case .handshaking, .evaluating, .closing, .closed: break
        }
    }

    /// Resumes reading: first what the engine holds, then the socket.
    public func resumeReading() {
        loop.preconditionInEventLoop()
        readingPaused = false
        guard case .active = stage else { return }
        channel.resumeReading()
        scheduleDrain()
    }

    /// Sends `close_notify` and closes; the delegate hears `streamClosed(error: nil)` now.
    /// The socket finishes in the background (see the file's rules). Does nothing once closed.
    public func close() {
        loop.preconditionInEventLoop()
        switch state {
        case .ready: closeGracefully(notifying: nil, error: nil)
        case .active(let delegate): closeGracefully(notifying: delegate, error: nil)
        case .closing, .closed: return
        case .handshaking, .evaluating: preconditionFailure("\(self): close() before trust was established")
        }
    }

    // MARK: reading

    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        loop.execute {
            self.drainScheduled = false
            self.deliverPlaintext()
        }
    }

    /// Decrypts and delivers what the engine holds, until it needs input, reading is paused,
    /// or the stream ends. Bytes delivered during a socket read are a batch the socket's
    /// `channelReadComplete` ends; bytes delivered otherwise (a drain, reading resumed) end
    /// their batch here with `streamReadComplete`.
    private func deliverPlaintext() {
        guard !isDelivering else { return }
        isDelivering = true
        var delivered = false
        defer {
            isDelivering = false
            if delivered {
                if inSocketRead {
                    batchDelivered = true
                } else if case .active(let delegate) = state {
                    delegate.streamReadComplete(self)
                }
            }
        }
        // One record at a time into the loop's scratch buffer: no connection holds a plaintext
        // buffer, and nothing is allocated or copied per record. Or into the delegate's own
        // memory when it offers some (a body's spare capacity): then not even its copy.
        while case .active(let delegate) = state, !readingPaused {
            let scratch = delegate.streamReadDestination(self) ?? loop.scratchBuffer
            let result: TLSEngine.ReadResult
            do {
                result = try engine.read(into: scratch)
            } catch {
                fail(.tls(error))
                return
            }
            // Reading can produce output (a KeyUpdate answer).
            guard flushEngineOutput() else { return }
            switch result {
            case .bytes(let count):
                // SAFETY: the engine wrote `count` bytes at the start of `scratch`: the delegate's
                // destination (valid until `streamRead` returns, its protocol's contract), or the
                // loop's scratch buffer, which only this loop's reads write; the span borrows them for the call,
                // and nothing the delegate does on this thread reads another record meanwhile
                // (`isDelivering` keeps this channel's own nested reads out; other channels read
                // only from their own loop events and tasks, never inside this call), except a
                // TLS channel carried inside this one, which copies the bytes into its engine
                // (`socketRead`) before it decrypts into the same buffer, and never reads the
                // span after that.
                let bytes = UnsafeRawBufferPointer(rebasing: scratch[..<count]).bindMemory(to: UInt8.self)
                let detachmentsBefore = detachments
                delegate.streamRead(self, bytes: bytes.span)
                delivered = detachments == detachmentsBefore
            case .needsInput:
                releaseBuffersIfIdle()
                return
            case .closed:
                // The batch's bytes end before the end of the stream does.
                if delivered || batchDelivered {
                    delivered = false
                    batchDelivered = false
                    delegate.streamReadComplete(self)
                    guard case .active = stage else { return }
                }
                delegate.streamReadEOF(self)
                if case .active(let delegate) = state { closeGracefully(notifying: delegate, error: nil) }
                return
            }
        }
    }

    private func releaseBuffersIfIdle() {
        engine.releaseBuffersIfIdle()
    }

    /// Frees OpenSSL's record buffers once the stream has stayed idle for the engine's delay
    /// (`TLSConfiguration.idleBufferReleaseDelay`; at once for zero), and tells the carrier: an
    /// HTTPS proxy's TLS channel under this one is idle too. A connection used one exchange
    /// after another keeps its buffers rather than freeing and allocating both each time.
    public func streamBecameIdle() {
        loop.preconditionInEventLoop()
        guard encryptPending() else { return }
        if engine.releasesRecordBuffers {
            let delay = engine.recordBufferReleaseDelay
            if delay <= .zero {
                engine.releaseRecordBuffers()
            } else {
                isStreamIdle = true
                idleSince = .now()
                if bufferReleaseTimer == nil { armBufferRelease(at: idleSince + delay) }
            }
        }
        channel.streamBecameIdle()
    }

    private func armBufferRelease(at due: Deadline) {
        bufferReleaseTimer = loop.schedule(at: due) { [weak self] in self?.bufferReleaseDue() }
    }

    /// Frees the buffers if the stream is still idle and has been for the delay; waits for the
    /// rest of the delay if it became idle again since; leaves them to the next idle period if
    /// an exchange is in flight.
    private func bufferReleaseDue() {
        bufferReleaseTimer = nil
        guard isStreamIdle, isOpen else { return }
        let due = idleSince + engine.recordBufferReleaseDelay
        if due.hasPassed(at: .now()) {
            engine.releaseRecordBuffers()
        } else {
            armBufferRelease(at: due)
        }
    }

    /// How many times the record buffers were freed (`TLSEngine.recordBufferReleases`).
    @_spi(WickTLSTesting) public var recordBufferReleases: Int {
        loop.preconditionInEventLoop()
        return engine.recordBufferReleases
    }

    // MARK: writing and ending

    /// Hands the engine's pending ciphertext to the socket. Returns false if that failed (the
    /// connection has then been failed).
    private func flushEngineOutput() -> Bool {
        guard engine.hasPendingOutput else { return true }
        do {
            try channel.write(engine.takePendingOutput()[...])
            return true
        } catch {
            switch stage {
            case .handshaking, .evaluating: failEstablishing(.reactor(error))
            case .ready, .active: fail(.reactor(error))
            case .closing, .closed: break
            }
            return false
        }
    }

    /// Queues `close_notify` and a FIN, tells the delegate, and lets the socket finish.
    private func closeGracefully(notifying delegate: (any StreamChannelDelegate)?, error: StreamChannelError?) {
        // What was written goes before `close_notify`; a failure instead told the delegate.
        guard encryptPending() else { return }
        engine.close()
        state = .closing
        if !socketGone {
            if engine.hasPendingOutput { try? channel.write(engine.takePendingOutput()[...]) }
            channel.finishWriting()
            // Read on (discarding) to see the peer's FIN: the channel then closes itself.
            channel.resumeReading()
        }
        if case .closing = stage {
            if socketGone || !channel.isOpen {
                state = .closed(nil)
            } else {
                closeTimer = loop.schedule(after: closeTimeout) { self.closeTimerFired() }
            }
        }
        releaseBuffersIfIdle()
        delegate?.streamClosed(self, error: error)
    }

    private func closeTimerFired() {
        guard case .closing = stage else { return }
        state = .closed(nil)
        channel.close()
    }

    /// Ends the connection with `error` at once: the socket is closed and the delegate told.
    private func fail(_ error: StreamChannelError) {
        let delegate: (any StreamChannelDelegate)?
        switch state {
        case .active(let current): delegate = current
        case .ready: delegate = nil
        case .handshaking, .evaluating, .closing, .closed:
            preconditionFailure("\(self): fail(\(error)) in state \(state)")
        }
        state = .closed(error)
        pendingPlaintext = []
        channel.close()
        releaseBuffersIfIdle()
        delegate?.streamClosed(self, error: error)
    }

    // MARK: socket events

    fileprivate func socketRead(_ bytes: Span<UInt8>) {
        switch stage {
        case .closing, .closed: return
        case .handshaking, .evaluating, .ready, .active: break
        }
        // SAFETY: the pointer is valid for the call; the engine copies the bytes.
        bytes.withUnsafeBufferPointer { engine.receivedFromNetwork($0) }
        switch stage {
        case .handshaking: advanceHandshake()
        case .active:
            inSocketRead = true
            deliverPlaintext()
            inSocketRead = false
        case .evaluating, .ready, .closing, .closed: break
        }
    }

    fileprivate func socketReadComplete() {
        guard batchDelivered else { return }
        batchDelivered = false
        if case .active(let delegate) = state { delegate.streamReadComplete(self) }
    }

    fileprivate func socketReadEOF() {
        socketEnded = true
        switch stage {
        case .handshaking:
            engine.receivedEndOfStream()
            advanceHandshake()
        case .evaluating, .ready:
            engine.receivedEndOfStream()
        case .active:
            engine.receivedEndOfStream()
            deliverPlaintext()
        case .closing, .closed:
            break
        }
    }

    fileprivate func socketWritabilityChanged(_ isWritable: Bool) {
        if case .active(let delegate) = state { delegate.streamWritabilityChanged(self, isWritable: isWritable) }
    }

    fileprivate func socketClosed(_ error: StreamChannelError?) {
        // Nothing more can be sent.
        pendingPlaintext = []
        switch state {
        case .handshaking, .evaluating:
            failEstablishing(error ?? .reactor(.channelClosed))
        case .ready:
            state = .closed(error ?? .reactor(.channelClosed))
            releaseBuffersIfIdle()
        case .active(let delegate):
            if error == nil && socketEnded {
                // A clean close after EOF: what the engine holds is still delivered; it ends
                // in `close_notify` or in truncation.
                socketGone = true
                if !readingPaused { deliverPlaintext() }
                return
            }
            state = .closed(error ?? .reactor(.channelClosed))
            releaseBuffersIfIdle()
            delegate.streamClosed(self, error: error ?? .reactor(.channelClosed))
        case .closing:
            closeTimer?.cancel()
            closeTimer = nil
            state = .closed(nil)
        case .closed:
            break
        }
    }
}

extension TLSChannel: IterationEndFlushing {
    /// Encrypts what this iteration wrote (`write` asked the loop for this call).
    package func flushAtIterationEnd() {
        encryptionRequested = false
        encryptPending()
    }
}

/// Carries the channel to its establishment timer, which is scheduled before the channel exists.
///
/// `@unchecked Sendable` proof: `target` is written once on the loop, before the timer can
/// fire, and read only by the timer's body, which runs on the same loop.
private final class TimerTarget: @unchecked Sendable {
    var target: TLSChannel?
}

/// The carrier's delegate: forwards its events to the TLS channel. The carrier holds it (and so
/// the TLS channel) until it closes.
private final class CarrierEvents: StreamChannelDelegate {
    private let owner: TLSChannel

    init(_ owner: TLSChannel) {
        self.owner = owner
    }

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        owner.socketRead(bytes)
    }

    func streamReadComplete(_ stream: any StreamChannel) {
        owner.socketReadComplete()
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        owner.socketReadEOF()
    }

    func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool) {
        owner.socketWritabilityChanged(isWritable)
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        owner.socketClosed(error)
    }
}
