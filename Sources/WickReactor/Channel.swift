// A connected stream socket owned by one event loop: reads, gathered writes, half-close, close.
//
// Rules:
// - Every method runs on `loop`'s thread (each public one checks). Users on other threads hop
//   with `channel.loop.execute { ... }`.
// - Reading starts at `start(delegate:)`; nothing is read (and so nothing is lost) before that.
// - Writes are queued and leave together in one gathered `sendmsg` at the end of the loop
//   iteration; bytes beyond `SocketOptions.maximumBufferedBytes` are refused, never buffered.
// - With level-triggered epoll the channel asks for `EPOLLOUT` only while bytes wait for the
//   kernel, and for `EPOLLIN | EPOLLRDHUP` only while reading is on. `EPOLLHUP` cannot be masked:
//   if it arrives while reading is off, the channel leaves epoll ("parks") until reading resumes,
//   so a paused, hung-up socket never spins the loop. `EPOLLERR` cannot be masked either: a paused
//   channel parks for it the same way.
// - A failure never takes back bytes the peer sent before it. They stay readable in the kernel
//   after a reset, so on `EPOLLERR`, and after a failed write, a reading channel reads them out
//   (and ends their batch) before it reports the error.
import CWickSystem

/// A connected socket (TCP or Unix) that belongs to one event loop for its whole life.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): `loop`, `fd`, `remoteAddress`,
/// `options` and `io` are immutable. Every `var` below is read and written only on `loop`'s
/// thread: public methods begin with `loop.preconditionInEventLoop()`, and internal ones are
/// called only by the loop (readiness, end-of-iteration flush, shutdown) or by those methods.
/// The type is `Sendable` so that a channel can be handed to another thread, which may only
/// use it to hop back onto its loop.
public final class Channel: @unchecked Sendable, CustomStringConvertible {
    private enum Lifecycle {
        /// Connected; reading waits for `start(delegate:)`.
        case idle
        /// Started: the delegate receives events.
        case active
        /// Closed; the descriptor is released. `error` is why (nil for a requested close).
        case closed(error: ReactorError?)
    }

    private enum Output {
        case open
        /// `shutdownWrite()` was called; the shutdown happens once queued bytes are sent.
        case closing
        case closed
        /// A write failed with `error`; the channel reads what is already there, then closes.
        case failed(ReactorError)
    }

    /// The loop that owns this channel.
    public let loop: EventLoop
    /// The address this channel is connected to.
    public let remoteAddress: SocketAddress
    /// The settings it was opened with.
    public let options: SocketOptions
    let fd: Int32
    private let io: SocketIO

    // Loop-thread only.
    // `@exclusivity(unchecked)` on the loop-confined stored properties below: they are touched on
    // one thread only, and no access overlaps another (no inout of one across a call that
    // reaches it), so the runtime's dynamic check proves nothing; it cost a thread-local lookup
    // and an access-set insert per access, about 7,000 instructions per request (callgrind).
    @exclusivity(unchecked) private var lifecycle = Lifecycle.idle
    /// How long resolving the host name took before this channel's connect (set by `Connector`
    /// before it hands the channel over); nil for a channel to an address or a Unix socket.
    /// Read and written on the loop.
    public internal(set) var resolveDuration: Duration?
    @exclusivity(unchecked) private var output = Output.open
    @exclusivity(unchecked) private var delegate: (any ChannelDelegate)?
    @exclusivity(unchecked) private var queue: [ArraySlice<UInt8>] = []
    /// The iovecs of the current gathered write, reused across writes (no allocation per flush).
    @exclusivity(unchecked) private var vectorScratch: [iovec] = []
    @exclusivity(unchecked) private var queueHead = 0
    @exclusivity(unchecked) private var queuedBytes = 0
    @exclusivity(unchecked) private var flushRequested = false
    @exclusivity(unchecked) private var waitingForWritable = false
    @exclusivity(unchecked) private var writable = true
    @exclusivity(unchecked) private var readingPaused = false
    @exclusivity(unchecked) private var inputClosed = false
    /// Out of epoll because a hang-up arrived while reading was off; see the file's rules.
    @exclusivity(unchecked) private var parked = false
    /// `localAddress` once read: the outer nil means not read yet.
    @exclusivity(unchecked) private var cachedLocalAddress: SocketAddress??

    /// The most vectors one gathered write passes to the kernel.
    static let maximumVectorsPerWrite = 64
    /// The most reads one readiness event performs before other connections get their turn.
    static let maximumReadsPerWakeup = 4
    /// The most read batches a failed write reads before the channel closes: more than a
    /// socket's receive buffer holds.
    static let maximumBatchesAfterAFailedWrite = 64

    /// Wraps a connected, non-blocking `fd` that is already registered on `loop` (its connect
    /// attempt's registration is transferred to the channel).
    init(fd: Int32, loop: EventLoop, remoteAddress: SocketAddress, options: SocketOptions, io: SocketIO = .system) {
        loop.assertInEventLoop()
        options.validate()
        self.fd = fd
        self.loop = loop
        self.remoteAddress = remoteAddress
        self.options = options
        self.io = io
    }

    /// `Channel(fd 12 → 127.0.0.1:8080)`.
    public var description: String { "Channel(fd \(fd) → \(remoteAddress))" }

    // MARK: state

    /// Whether the channel is open (not yet closed by either side or by an error).
    public var isOpen: Bool {
        loop.preconditionInEventLoop()
        if case .closed = lifecycle { return false }
        return true
    }

    /// The socket, for a caller that waits for its readiness inline
    /// (`EventLoop.waitInlineIfAsleep`); nil once closed.
    public var readinessDescriptor: Int32? {
        loop.preconditionInEventLoop()
        if case .closed = lifecycle { return nil }
        return fd
    }

    /// Whether queued bytes are at or under the watermarks; stop writing while `false` and wait
    /// for `channelWritabilityChanged(_:isWritable: true)`.
    public var isWritable: Bool {
        loop.preconditionInEventLoop()
        return writable
    }

    /// The address of this end of the connection (`getsockname`), read at the first call and
    /// kept. nil for a Unix socket (a client's end has no name), when the channel closed before
    /// the first call, or when the call fails.
    public var localAddress: SocketAddress? {
        loop.preconditionInEventLoop()
        if let cachedLocalAddress { return cachedLocalAddress }
        if case .closed = lifecycle { return nil }
        let address = try? Syscalls.socketName(fd)
        cachedLocalAddress = .some(address)
        return address
    }

    /// Bytes written by the user but not yet accepted by the kernel.
    public var bufferedBytes: Int {
        loop.preconditionInEventLoop()
        return queuedBytes
    }

    // MARK: starting and reading

    /// Sets the delegate and starts reading. Call once. If the channel has already closed (the
    /// loop shut down, or the peer reset it before this call), the delegate's `channelClosed` is
    /// called at once.
    public func start(delegate: any ChannelDelegate) {
        loop.preconditionInEventLoop()
        precondition(self.delegate == nil, "\(self): start(delegate:) called twice")
        switch lifecycle {
        case .idle:
            self.delegate = delegate
            lifecycle = .active
            updateInterest()
        case .active:
            preconditionFailure("\(self): start(delegate:) called twice")
        case .closed(let error):
            delegate.channelClosed(self, error: error)
        }
    }

    /// Hands a started channel back, unstarted: reading stops, the delegate is dropped (it hears
    /// nothing more, not even `channelClosed`), and `start(delegate:)` may be called again by
    /// the layer the stream goes to next. A proxy's CONNECT tunnel uses this to give its socket
    /// to TLS once the proxy has answered. Bytes not yet read stay in the kernel; queued writes
    /// still go out. Traps unless the channel is started and open.
    public func detachDelegate() {
        loop.preconditionInEventLoop()
        guard case .active = lifecycle else { preconditionFailure("\(self): detachDelegate() while not started") }
        lifecycle = .idle
        delegate = nil
        readingPaused = false
        updateInterest()
    }

    /// Stops reading (read backpressure): the kernel's receive buffer fills and TCP flow control
    /// slows the peer. Bytes already delivered are not affected.
    public func pauseReading() {
        loop.preconditionInEventLoop()
        readingPaused = true
        updateInterest()
    }

    /// Resumes reading after `pauseReading()`.
    public func resumeReading() {
        loop.preconditionInEventLoop()
        readingPaused = false
        updateInterest()
    }

    private var wantsToRead: Bool {
        if case .active = lifecycle { return !readingPaused && !inputClosed }
        return false
    }

    /// Reads until the socket is drained, the peer finishes, or `maximumReadsPerWakeup` reads
    /// filled the buffer (level-triggered epoll calls again for the rest); then, if bytes were
    /// delivered and the channel is still open, `channelReadComplete`.
    private func readFromSocket() {
        guard readBatch(), case .active = lifecycle, let delegate else { return }
        delegate.channelReadComplete(self)
    }

    /// The reads of `readFromSocket`. Returns whether bytes were delivered and their batch has
    /// not ended yet (an end of stream ends it first).
    private func readBatch() -> Bool {
        var delivered = false
        for _ in 0..<Self.maximumReadsPerWakeup {
            guard wantsToRead, let delegate else { return delivered }
            let buffer = delegate.channelReadDestination(self) ?? loop.readBuffer
            let result: IOResult<Int>
            do {
                result = try io.read(fd, buffer)
            } catch {
                // The batch's bytes end before the error does.
                if delivered { delegate.channelReadComplete(self) }
                close(error: ReactorError(error))
                return false
            }
            switch result {
            case .wouldBlock:
                return delivered
            case .processed(0):
                inputClosed = true
                updateInterest()
                // The batch's bytes end before the end of the stream does.
                if delivered { delegate.channelReadComplete(self) }
                delegate.channelReadEOF(self)
                closeIfBothHalvesDone()
                return false
            case .processed(let count):
                // SAFETY: the buffer (the loop's, or the delegate's destination, valid until
                // `channelRead` returns) holds `count` initialised bytes just read; the span
                // borrows it only for the duration of the delegate call.
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count]).bindMemory(to: UInt8.self)
                delegate.channelRead(self, bytes: bytes.span)
                delivered = true
                if count < buffer.count { return delivered }
            }
        }
        return delivered
    }

    // MARK: writing

    /// Queues `bytes` to be sent at the end of this loop iteration, gathered with other writes.
    /// Throws `.channelClosed` if the channel is closed, `.outputClosed` after `shutdownWrite()`,
    /// and `.writeBufferFull` if the queue would exceed `options.maximumBufferedBytes` (the
    /// bytes are then not queued). Crossing `highWatermark` makes the channel not writable.
    public func write(_ bytes: ArraySlice<UInt8>) throws(ReactorError) {
        loop.preconditionInEventLoop()
        if case .closed = lifecycle { throw .channelClosed }
        switch output {
        case .open: break
        case .closing, .closed: throw .outputClosed
        case .failed(let error): throw error
        }
        guard bytes.count <= options.maximumBufferedBytes - queuedBytes else {
            throw .writeBufferFull(limit: options.maximumBufferedBytes)
        }
        guard !bytes.isEmpty else { return }
        queue.append(bytes)
        queuedBytes += bytes.count
        requestFlush()
        updateWritability()
    }

    /// Queues `bytes`; see `write(_:)` for `ArraySlice`.
    public func write(_ bytes: [UInt8]) throws(ReactorError) {
        try write(bytes[...])
    }

    /// Shuts the write side down (TCP FIN) once every queued byte is sent; later writes throw
    /// `.outputClosed`. Reading continues. Throws `.channelClosed` if the channel is closed.
    public func shutdownWrite() throws(ReactorError) {
        loop.preconditionInEventLoop()
        if case .closed = lifecycle { throw .channelClosed }
        guard case .open = output else { return }
        output = .closing
        requestFlush()
    }

    private func requestFlush() {
        guard !flushRequested, !waitingForWritable else { return }
        flushRequested = true
        loop.flushAtEndOfIteration(self)
    }

    /// Sends queued bytes until the queue is empty or the kernel's buffer is full. Called by the
    /// loop at the end of an iteration and on `EPOLLOUT`.
    func flushNow() {
        flushRequested = false
        if case .closed = lifecycle { return }
        while queuedBytes > 0 {
            let result: IOResult<Int>
            let attempted: Int
            do {
                (result, attempted) = try writeQueuedPrefix()
            } catch {
                writeFailed(ReactorError(error))
                return
            }
            switch result {
            case .wouldBlock:
                waitingForWritable = true
            case .processed(let written):
                consume(written)
                // A short write means the kernel's buffer is full: wait for EPOLLOUT instead of
                // making a call that would return EAGAIN.
                if written < attempted { waitingForWritable = true }
            }
            if waitingForWritable { break }
        }
        if queuedBytes == 0 {
            waitingForWritable = false
            if case .closing = output {
                do {
                    try io.shutdownWrite(fd)
                } catch {
                    close(error: ReactorError(error))
                    return
                }
                output = .closed
            }
        }
        updateInterest()
        updateWritability()
        closeIfBothHalvesDone()
    }

    /// One gathered write of up to `maximumVectorsPerWrite` queued slices; returns the result
    /// and how many bytes were offered.
    private func writeQueuedPrefix() throws(SyscallError) -> (IOResult<Int>, Int) {
        // One slice queued, the usual case (a request head with its body, or one record): one
        // vector on the stack, without the scratch array, the sum and the pinning recursion.
        if queue.count - queueHead == 1 {
            let (io, fd) = (self.io, self.fd)
            // SAFETY: the iovec points into the slice's storage, pinned by withUnsafeBytes while
            // the kernel reads it inside the closure; the vector itself lives on this frame.
            let result: Result<IOResult<Int>, SyscallError> = queue[queueHead].withUnsafeBytes { bytes in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
                do throws(SyscallError) {
                    return .success(
                        try withUnsafeMutablePointer(to: &vector) { (pointer) throws(SyscallError) in
                            try io.write(fd, UnsafeMutableBufferPointer(start: pointer, count: 1))
                        })
                } catch {
                    return .failure(error)
                }
            }
            return (try result.get(), queue[queueHead].count)
        }
        let end = min(queue.count, queueHead + Self.maximumVectorsPerWrite)
        vectorScratch.removeAll(keepingCapacity: true)
        let offered = queue[queueHead..<end].reduce(0) { $0 + $1.count }
        let (io, fd) = (self.io, self.fd)
        // SAFETY: each iovec points into a slice that withVectors keeps pinned until its closure
        // returns, and the kernel's write of `vectors` (only read) happens inside that closure; the
        // iovec array's own storage is valid inside withUnsafeMutableBufferPointer.
        let result = try Self.withVectors(queue[queueHead..<end], &vectorScratch) { (vectors) throws(SyscallError) in
            try vectors.withUnsafeMutableBufferPointer { (pointer) throws(SyscallError) in try io.write(fd, pointer) }
        }
        return (result, offered)
    }

    /// Pins each slice's storage for the duration of `body`, recursively, collecting iovecs.
    private static func withVectors<R>(
        _ slices: ArraySlice<ArraySlice<UInt8>>, _ vectors: inout [iovec],
        _ body: (inout [iovec]) throws(SyscallError) -> R
    ) throws(SyscallError) -> R {
        guard let first = slices.first else { return try body(&vectors) }
        // SAFETY: the pointer is valid inside this closure, and everything that uses it (the
        // nested closures and `body`) runs inside it.
        let result: Result<R, SyscallError> = first.withUnsafeBytes { bytes in
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            do throws(SyscallError) {
                return .success(try withVectors(slices.dropFirst(), &vectors, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func consume(_ written: Int) {
        var remaining = written
        queuedBytes -= written
        while remaining > 0 {
            let head = queue[queueHead]
            if head.count <= remaining {
                remaining -= head.count
                queueHead += 1
            } else {
                queue[queueHead] = head.dropFirst(remaining)
                remaining = 0
            }
        }
        if queueHead == queue.count {
            // One slice, the usual case: dropped without the general emptying (its capacity kept).
            if queue.count == 1 { queue.removeLast() } else { queue.removeAll(keepingCapacity: queue.capacity <= 1024) }
            queueHead = 0
        } else if queueHead >= 1024 {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }

    private func updateWritability() {
        let now: Bool
        if writable && queuedBytes > options.highWatermark {
            now = false
        } else if !writable && queuedBytes <= options.lowWatermark {
            now = true
        } else {
            return
        }
        writable = now
        if case .active = lifecycle { delegate?.channelWritabilityChanged(self, isWritable: now) }
    }

    // MARK: closing

    /// Closes the channel now: queued bytes are dropped, the descriptor is released, and the
    /// delegate gets `channelClosed(_, error: nil)`. Closing a closed channel does nothing.
    public func close() {
        loop.preconditionInEventLoop()
        close(error: nil)
    }

    private func closeIfBothHalvesDone() {
        guard inputClosed else { return }
        switch output {
        case .open, .closing: break
        case .closed: close(error: nil)
        case .failed(let error): close(error: error)
        }
    }

    /// A gathered write failed: the peer reset the connection, mostly. What it sent before that
    /// (a 413 answering an upload, which rule 8 of the HTTP/1.1 machine reads to its end) is
    /// already queued in the kernel, ahead of the reset, and readable. A started channel that
    /// is reading drops its queued writes and reads that out now, in batches, until the socket
    /// has no more (end of stream, the error, or nothing yet) or reading stops; then it closes
    /// with this error. Writes made meanwhile throw it.
    private func writeFailed(_ error: ReactorError) {
        if case .active = lifecycle, !inputClosed {
            output = .failed(error)
            queue.removeAll()
            queueHead = 0
            queuedBytes = 0
            waitingForWritable = false
            for _ in 0..<Self.maximumBatchesAfterAFailedWrite where wantsToRead {
                guard readBatch() else { break }
                if case .active = lifecycle, let delegate { delegate.channelReadComplete(self) }
            }
        }
        close(error: error)
    }

    /// Closes with `error` (nil for a requested or clean close); idempotent.
    func close(error: ReactorError?) {
        if case .closed = lifecycle { return }
        let wasActive: Bool
        if case .active = lifecycle { wasActive = true } else { wasActive = false }
        lifecycle = .closed(error: error)
        if !parked { loop.deregister(fd: fd) }
        try? Syscalls.close(fd)
        queue.removeAll()
        queueHead = 0
        queuedBytes = 0
        let delegate = self.delegate
        self.delegate = nil
        if wasActive { delegate?.channelClosed(self, error: error) }
    }

    // MARK: readiness

    private func updateInterest() {
        if case .closed = lifecycle { return }
        var interest: UInt32 = 0
        if wantsToRead { interest |= Epoll.readable | Epoll.readHangup }
        if waitingForWritable { interest |= Epoll.writable }
        if parked {
            guard wantsToRead else { return }
            do {
                try loop.register(fd: fd, interest: interest, handler: self)
                parked = false
            } catch {
                close(error: error)  // still parked, so close does not deregister
            }
            return
        }
        loop.setInterest(fd: fd, interest)
    }
}

extension Channel: IterationEndFlushing {
    /// `flushNow()`, which `requestFlush` asked the loop for.
    package func flushAtIterationEnd() { flushNow() }
}

extension Channel: Selectable {
    func readinessChanged(_ events: UInt32) {
        if events & Epoll.error != 0 && errorReported() { return }
        if events & Epoll.writable != 0 && waitingForWritable {
            waitingForWritable = false
            flushNow()
        }
        if events & (Epoll.readable | Epoll.readHangup | Epoll.hangup) != 0 && wantsToRead {
            readFromSocket()
        }
        if case .closed = lifecycle { return }
        if events & Epoll.hangup != 0 && !wantsToRead { hungUpWhileNotReading() }
    }

    /// `EPOLLERR`: the connection failed, mostly by the peer's reset. What the peer sent before
    /// is still queued in the kernel and readable (Linux's `tcp_recvmsg` hands out queued bytes
    /// before it reports the error), so a reading channel reads first: the read that finds the
    /// queue empty reports the error and closes the channel, and a full batch leaves the rest
    /// to the next iteration, where epoll reports the error again. A paused channel parks until
    /// reading resumes, as for a hang-up. One that is not reading (not started, or its input
    /// ended) closes with the pending error. Returns whether the event is dealt with; false
    /// when there was no error to report after all.
    private func errorReported() -> Bool {
        if wantsToRead {
            let batchOpen = readBatch()
            if batchOpen, case .active = lifecycle, let delegate { delegate.channelReadComplete(self) }
            // Bytes came (more may wait), or the read closed the channel with the error.
            if batchOpen || !isOpen { return true }
        }
        if case .active = lifecycle, readingPaused, !inputClosed {
            parked = true
            loop.deregister(fd: fd)
            return true
        }
        let code = (try? io.pendingError(fd)) ?? 0
        guard code != 0 else { return false }
        close(error: ReactorError(SyscallError(call: "socket", errno: code)))
        return true
    }

    /// `EPOLLHUP` with reading off: both directions are finished, or reading is paused / not
    /// started yet. Close if nothing more can be read; otherwise park until reading resumes.
    private func hungUpWhileNotReading() {
        if inputClosed {
            close(error: nil)
            return
        }
        parked = true
        loop.deregister(fd: fd)
    }

    func loopIsShuttingDown() {
        close(error: .loopShutDown)
    }
}
