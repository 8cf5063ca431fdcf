// The BIO between OpenSSL and a TLSEngine's own byte buffers: no socket, no copy beyond one each way.
internal import CWickOpenSSL

/// The ciphertext an engine holds: bytes received from the network that OpenSSL has not read
/// yet, and bytes OpenSSL wrote that the driver has not sent yet. Owned by one engine, touched
/// only on the thread that drives it.
///
/// Its fields are `@exclusivity(unchecked)`: OpenSSL's BIO callbacks reach them several times a
/// record, and a run-time check each time cost more than the callbacks' own work. Safe because
/// one thread touches them and no access spans a call that could reach them again: the
/// callbacks copy into or out of OpenSSL's memory and return.
final class TLSByteBuffers {
    /// The most storage an empty buffer keeps while idle (`releaseIfEmpty`): enough for the
    /// records of a small request or response, so a connection in steady use allocates no
    /// buffer per exchange, and an idle one holds at most twice this.
    static let keptIdleCapacity = 4096

    // SAFETY: unchecked exclusivity (see the type's comment): one thread, and no access spans a
    // call that could reach these fields again (`sendOutbound`'s `send` writes to the socket).
    /// Received ciphertext; OpenSSL has read everything before `inboundStart`.
    @exclusivity(unchecked) var inbound: [UInt8] = []
    @exclusivity(unchecked) var inboundStart = 0
    /// Ciphertext to send, in order. After `takeOutbound()` handed it out its bytes stay here
    /// (the writer holds them too) but count as gone: the next write clears them first, keeping
    /// the storage when the writer has let go of it (after its flush), so sending allocates no
    /// new buffer each time.
    @exclusivity(unchecked) private(set) var outbound: [UInt8] = []
    @exclusivity(unchecked) private var isOutboundTaken = false
    /// Whether the network said end-of-stream: once `inbound` is drained, reads return EOF.
    @exclusivity(unchecked) var endOfStream = false

    var inboundCount: Int { inbound.count - inboundStart }
    /// Ciphertext waiting to be sent.
    var outboundCount: Int { isOutboundTaken ? 0 : outbound.count }

    /// Appends received bytes, first dropping what OpenSSL has consumed.
    func append(_ bytes: some Collection<UInt8>) {
        if inboundStart == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
        } else if inboundStart > 4096 && inboundStart * 2 > inbound.count {
            inbound.removeSubrange(0..<inboundStart)
            inboundStart = 0
        }
        inbound.append(contentsOf: bytes)
    }

    /// Queues ciphertext to send.
    func appendOutbound(_ bytes: UnsafeRawBufferPointer) {
        reclaimOutbound()
        outbound.append(contentsOf: bytes)
    }

    /// The ciphertext waiting to be sent, handed out whole; it no longer counts as waiting.
    func takeOutbound() -> [UInt8] {
        guard !isOutboundTaken else { return [] }
        isOutboundTaken = true
        return outbound
    }

    /// Calls `send` with the ciphertext waiting to be sent and drops the bytes it reports sent.
    /// - Throws: what `send` throws (nothing is dropped then).
    func sendOutbound(_ send: (UnsafeRawBufferPointer) throws -> Int) rethrows {
        reclaimOutbound()
        guard !outbound.isEmpty else { return }
        // SAFETY: the pointer is valid for the duration of `send`, which must not keep it.
        let sent = try outbound.withUnsafeBytes { try send($0) }
        precondition((0...outbound.count).contains(sent), "sent \(sent) of \(outbound.count) bytes")
        if sent == outbound.count {
            outbound.removeAll(keepingCapacity: true)
        } else {
            outbound.removeFirst(sent)
        }
    }

    /// Frees the buffers' storage when they hold nothing, unless it is small
    /// (`keptIdleCapacity`).
    func releaseIfEmpty() {
        if inboundCount == 0 {
            if inbound.capacity > Self.keptIdleCapacity {
                inbound = []
            } else {
                inbound.removeAll(keepingCapacity: true)
            }
            inboundStart = 0
        }
        if outboundCount == 0, outbound.capacity > Self.keptIdleCapacity {
            outbound = []
            isOutboundTaken = false
        }
    }

    /// Forgets handed-out ciphertext, keeping the storage if the writer let go of it.
    private func reclaimOutbound() {
        guard isOutboundTaken else { return }
        outbound.removeAll(keepingCapacity: true)
        isOutboundTaken = false
    }
}

/// A `BIO_METHOD` whose BIOs read from and write to a `TLSByteBuffers`.
///
/// Invariant: a BIO's data pointer is an unretained `TLSByteBuffers` that the engine owning the
/// `SSL` (and so the BIO) keeps alive for the SSL's whole life.
enum EngineBIO {
    /// The method, made once per process.
    private static let method = MethodBox.make()

    /// A new BIO over `buffers`, with one reference for `SSL_set_bio` to take.
    static func make(over buffers: TLSByteBuffers) -> OpaquePointer {
        guard let bio = BIO_new(method.pointer) else {
            preconditionFailure("BIO_new failed: out of memory (\(OpenSSLErrorQueue.drain()))")
        }
        // SAFETY: unretained; the engine owns `buffers` for longer than the SSL owns the BIO.
        BIO_set_data(bio, Unmanaged.passUnretained(buffers).toOpaque())
        BIO_set_init(bio, 1)
        return bio
    }

    /// Calls `body` with the BIO's buffers, without retaining them (OpenSSL calls the BIO
    /// several times a record); `fallback` when the BIO has none yet.
    private static func withBuffers<Result>(
        _ bio: OpaquePointer?, else fallback: Result, _ body: (TLSByteBuffers) -> Result
    ) -> Result {
        // SAFETY: see the type's invariant (the engine keeps the buffers alive for the call);
        // nil only before BIO_set_data.
        guard let bio, let data = BIO_get_data(bio) else { return fallback }
        return Unmanaged<TLSByteBuffers>.fromOpaque(data)._withUnsafeGuaranteedRef(body)
    }

    private struct MethodBox: @unchecked Sendable {
        // @unchecked Sendable: the BIO_METHOD is fully set up before `make` returns and never
        // changed again; OpenSSL only reads it.
        let pointer: OpaquePointer

        static func make() -> MethodBox {
            let type = BIO_get_new_index() | BIO_TYPE_SOURCE_SINK
            guard let method = BIO_meth_new(type, "wick buffers") else {
                preconditionFailure("BIO_meth_new failed: \(OpenSSLErrorQueue.drain())")
            }
            BIO_meth_set_write_ex(method) { bio, data, length, written in
                guard let data, let written else { return 0 }
                return EngineBIO.withBuffers(bio, else: 0) { buffers in
                    // SAFETY: OpenSSL passes `length` readable bytes at `data` for this call only.
                    buffers.appendOutbound(UnsafeRawBufferPointer(start: data, count: length))
                    written.pointee = length
                    return 1
                }
            }
            BIO_meth_set_read_ex(method) { bio, data, length, readBytes in
                guard let data, let readBytes else { return 0 }
                return EngineBIO.withBuffers(bio, else: 0) { buffers in
                    cwick_BIO_clear_retry_flags(bio)
                    let count = min(length, buffers.inboundCount)
                    guard count > 0 else {
                        // SAFETY: `readBytes` is OpenSSL's size_t out-parameter for this call,
                        // non-nil (checked above).
                        readBytes.pointee = 0
                        // No bytes: wait for more unless the network has ended (then a plain 0 is
                        // EOF).
                        if !buffers.endOfStream { _ = cwick_BIO_set_retry_read(bio) }
                        return 0
                    }
                    // SAFETY: `data` has room for `length` >= `count` bytes; our buffer holds
                    // `count` unread bytes from `inboundStart`.
                    buffers.inbound.withUnsafeBufferPointer { source in
                        UnsafeMutableRawPointer(data).copyMemory(
                            from: source.baseAddress! + buffers.inboundStart, byteCount: count)
                    }
                    buffers.inboundStart += count
                    readBytes.pointee = count
                    return 1
                }
            }
            BIO_meth_set_ctrl(method) { bio, command, _, _ in
                // Answered before the buffers are looked up: OpenSSL asks for a flush after
                // every record it writes, and for kTLS support, which these BIOs never have.
                switch command {
                case BIO_CTRL_FLUSH: return 1
                case BIO_CTRL_PENDING, BIO_CTRL_WPENDING, BIO_CTRL_EOF: break
                default: return 0
                }
                return EngineBIO.withBuffers(bio, else: 0) { buffers in
                    switch command {
                    case BIO_CTRL_PENDING: buffers.inboundCount
                    case BIO_CTRL_WPENDING: buffers.outboundCount
                    default: buffers.endOfStream && buffers.inboundCount == 0 ? 1 : 0
                    }
                }
            }
            return MethodBox(pointer: method)
        }
    }
}
