// A connection's stream with one exchange's injected fault played over the real stream beneath it.
import WickCore
import WickReactor
import WickTLS

/// Stands between an `HTTP1ConnectionDriver` and its real `StreamChannel` (plain or TLS) when
/// the session has a `FaultInjector`, and plays the exchange fault the pool armed before each
/// request (`arm(_:)`): it holds the response back (latency), cuts it with a reset, ends it
/// early (truncated body), goes silent (stall), or swallows the request and answers it itself.
/// Everything else passes through unchanged, so the driver, the pool and the request see the
/// failure as they would see it from a real server: the same events, the same errors.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): like the driver's, every `var` is
/// read and written only on `loop`'s thread: the stream calls its delegate there, the driver
/// and the pool call in from there, and the timer and the answer's task run there.
final class FaultInjectingChannel: StreamChannel, StreamChannelDelegate, @unchecked Sendable {
    /// What the armed fault does to the current exchange.
    private enum Plan {
        /// Nothing: bytes pass.
        case passThrough
        /// Response bytes are held until then.
        case hold(until: Deadline)
        /// The connection resets once this many response bytes have passed.
        case reset(after: Int)
        /// The stream ends once the head and this many body bytes have passed.
        case truncate(keeping: Int)
        /// Nothing more passes once this many response bytes have.
        case stall(after: Int)
        /// The request's bytes are swallowed; the answer was queued at `arm`.
        case answer
    }

    /// The end of a response head, which `truncate` counts body bytes from.
    private static let headTerminator: [UInt8] = [13, 10, 13, 10]

    let inner: any StreamChannel
    private var delegate: (any StreamChannelDelegate)?
    private var plan = Plan.passThrough
    /// Arms so far: tells the answer queued for an exchange from a later one.
    private var armCount: UInt64 = 0
    /// Response bytes passed in the current exchange.
    private var passedBytes = 0
    /// How much of `headTerminator` the last bytes matched, and whether the head has ended.
    private var terminatorMatched = 0
    private var headEnded = false
    /// Bytes, an end of stream and a close held back by `hold`.
    private var held: [UInt8] = []
    private var heldEOF = false
    private var heldClose: StreamChannelError??
    private var holdTimer: Scheduled?
    private var isPaused = false
    /// The fault has cut the stream: nothing more from the peer reaches the delegate.
    private var isSilenced = false
    /// The real stream closed while silenced: the delegate hears it at `close()`.
    private var innerClosed = false
    /// The close reported to the delegate in place of the real stream's (a reset's).
    private var closeError: StreamChannelError?
    /// The delegate asked for the close (`close()`).
    private var isClosing = false
    private var isClosedReported = false

    /// A wrapper over `inner`, a connected, not yet started stream; nothing is injected until
    /// `arm(_:)` is given a fault.
    init(wrapping inner: any StreamChannel) {
        self.inner = inner
    }

    /// Arms the fault for the exchange about to start (nil: none), on the loop, before the
    /// driver writes the request.
    func arm(_ fault: Fault?) {
        inner.loop.preconditionInEventLoop()
        armCount += 1
        passedBytes = 0
        terminatorMatched = 0
        headEnded = false
        guard let fault else { return plan = .passThrough }
        switch fault {
        case .latency(let delay):
            // The injector has drawn the delay: it arrives `.fixed`.
            plan = .hold(until: .now() + delay.delay(forUnitDraw: 0))
        case .reset(let count):
            plan = .reset(after: count)
        case .truncatedBody(let count):
            plan = .truncate(keeping: count)
        case .stall(let count):
            plan = .stall(after: count)
        case .respond(let status, let headers, let body):
            plan = .answer
            let answer = Self.response(status: status, headers: headers, body: body)
            let number = armCount
            inner.loop.execute { [self] in deliverAnswer(answer, exchange: number) }
        case .connectRefused, .connectTimeout:
            plan = .passThrough
        }
    }

    /// The bytes of an answer: status line, fields, `Content-Length`, body.
    static func response(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8]) -> [UInt8] {
        var head = "HTTP/1.1 \(status.rawValue) Injected Fault\r\n"
        for field in headers
        where !field.name.equalsIgnoringASCIICase("Content-Length")
            && !field.name.equalsIgnoringASCIICase("Transfer-Encoding")
        {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    private func deliverAnswer(_ answer: [UInt8], exchange number: UInt64) {
        guard number == armCount, !isClosedReported, let delegate else { return }
        delegate.streamRead(self, bytes: answer.span)
        if !isClosedReported { delegate.streamReadComplete(self) }
    }

    // MARK: - StreamChannel

    var loop: EventLoop { inner.loop }
    var remoteAddress: SocketAddress { inner.remoteAddress }
    var connectionDetails: StreamConnectionDetails { inner.connectionDetails }
    var isOpen: Bool { !isClosedReported && (inner.isOpen || isSilenced) }
    var isWritable: Bool { inner.isWritable }

    func start(delegate: any StreamChannelDelegate) {
        self.delegate = delegate
        inner.start(delegate: self)
    }

    func write(_ bytes: ArraySlice<UInt8>) throws(ReactorError) {
        if case .answer = plan { return }
        try inner.write(bytes)
    }

    func pauseReading() {
        isPaused = true
        inner.pauseReading()
    }

    func resumeReading() {
        isPaused = false
        inner.resumeReading()
        if case .hold(let until) = plan, holdTimer == nil, until.hasPassed(at: .now()) { releaseHeld() }
    }

    func streamBecameIdle() {
        inner.streamBecameIdle()
    }

    func close() {
        isClosing = true
        holdTimer?.cancel()
        holdTimer = nil
        if innerClosed || heldClose != nil { return report(closeError) }
        // The real stream reports its close to `streamClosed`, which tells the delegate.
        inner.close()
    }

    // MARK: - StreamChannelDelegate (the real stream's events)

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        guard !isSilenced, let delegate else { return }
        switch plan {
        case .passThrough, .answer:
            delegate.streamRead(self, bytes: bytes)
        case .hold(let until):
            if held.isEmpty, until.hasPassed(at: .now()) {
                plan = .passThrough
                return delegate.streamRead(self, bytes: bytes)
            }
            for index in bytes.indices { held.append(bytes[index]) }
            if holdTimer == nil {
                holdTimer = inner.loop.schedule(at: until) { [self] in
                    inner.loop.execute { [self] in holdElapsed() }
                }
            }
        case .reset(let count), .stall(let count):
            let room = count - passedBytes
            guard bytes.count >= room else {
                passedBytes += bytes.count
                return delegate.streamRead(self, bytes: bytes)
            }
            if room > 0 { delegate.streamRead(self, bytes: bytes.extracting(0..<room)) }
            passedBytes = count
            isSilenced = true
            guard case .reset = plan, !isClosedReported else { return }
            closeError = .reactor(.connectionReset)
            inner.close()
        case .truncate(let keeping):
            var index = 0
            while index < bytes.count, !headEnded {
                let byte = bytes[index]
                terminatorMatched =
                    byte == Self.headTerminator[terminatorMatched] ? terminatorMatched + 1 : (byte == 13 ? 1 : 0)
                headEnded = terminatorMatched == Self.headTerminator.count
                index += 1
            }
            let room = headEnded ? keeping - passedBytes : .max
            guard bytes.count - index >= room else {
                if headEnded { passedBytes += bytes.count - index }
                return delegate.streamRead(self, bytes: bytes)
            }
            if index + room > 0 { delegate.streamRead(self, bytes: bytes.extracting(0..<(index + room))) }
            passedBytes = keeping
            isSilenced = true
            guard !isClosedReported else { return }
            if inner is TLSChannel {
                // A TLS stream cut without close_notify closes with `.truncated`, never an EOF.
                closeError = .tls(.truncated)
                inner.close()
            } else {
                delegate.streamReadEOF(self)
            }
        }
    }

    func streamReadComplete(_ stream: any StreamChannel) {
        guard !isSilenced, held.isEmpty, !isClosedReported else { return }
        delegate?.streamReadComplete(self)
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        guard !isSilenced else { return }
        if !held.isEmpty { return heldEOF = true }
        delegate?.streamReadEOF(self)
    }

    func streamWritabilityChanged(_ stream: any StreamChannel, isWritable: Bool) {
        delegate?.streamWritabilityChanged(self, isWritable: isWritable)
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        innerClosed = true
        // Held bytes go first; the close follows them when the hold ends (unless the delegate
        // closed the stream itself: then nothing more is delivered).
        if !held.isEmpty, !isClosing { return heldClose = .some(error) }
        holdTimer?.cancel()
        holdTimer = nil
        // A stalled or truncated stream stays silent until the driver closes it.
        if isSilenced, closeError == nil, !isClosing { return }
        report(closeError ?? error)
    }

    // MARK: - Held bytes

    private func holdElapsed() {
        holdTimer = nil
        guard !isPaused else { return }
        releaseHeld()
    }

    /// Delivers what `hold` kept, in the order it came: bytes, an end, a close.
    private func releaseHeld() {
        plan = .passThrough
        if !held.isEmpty, let delegate {
            let bytes = held
            held = []
            delegate.streamRead(self, bytes: bytes.span)
            if !isClosedReported { delegate.streamReadComplete(self) }
        }
        if heldEOF, !isClosedReported {
            heldEOF = false
            delegate?.streamReadEOF(self)
        }
        if let close = heldClose {
            heldClose = nil
            report(close)
        }
    }

    /// Tells the delegate the stream closed, once, and lets it go.
    private func report(_ error: StreamChannelError?) {
        guard !isClosedReported else { return }
        isClosedReported = true
        let told = delegate
        delegate = nil
        told?.streamClosed(self, error: error)
    }
}
