// The client side of one HTTP/2 connection, sans-I/O: bytes in, events out, frames to write out.
//
// Rules
//
// 1. The connection starts with the client preface and SETTINGS (push disabled, this client's
//    limits), plus a WINDOW_UPDATE raising the connection window, all queued at `init`. The
//    server's first frame must be SETTINGS (RFC 9113 §3.4); every SETTINGS is applied in order
//    and acknowledged. This client's own SETTINGS bind the server from its ACK on; until then
//    the protocol defaults (larger where ours are smaller) are tolerated.
// 2. Streams are opened with odd, increasing identifiers (§5.1.1), at most the smaller of the
//    server's SETTINGS_MAX_CONCURRENT_STREAMS and `maxConcurrentStreams` at once. A request the
//    connection refuses is refused before anything is written or encoded.
// 3. A field block is HEADERS plus CONTINUATION frames on one stream, nothing in between (§4.3),
//    bounded in fragments and bytes. Every complete block is HPACK-decoded, even for a stream the
//    client has already reset, so the decoder stays in step with the server.
// 4. Each stream follows `HTTP2StreamState`'s rules. A frame on a stream the client never opened
//    (idle, or even-numbered) is a connection error; one on a stream that has closed or that the
//    client reset is ignored (§5.1: the server may not know yet), its DATA still counted against
//    the connection window and credited back.
// 5. Flow control (§6.9), receiving: DATA beyond a window is an error (stream or connection).
//    Windows reopen only through `bodyConsumed`: a WINDOW_UPDATE goes out once half a window has
//    been consumed, so a slow consumer stops the server after one window of unconsumed bytes per
//    stream and `connectionWindowSize` in all. Padding is credited at once. When a stream ends
//    abnormally (reset either way, stream error, GOAWAY), its unconsumed bytes are credited to
//    the connection at once and later reports for it are ignored; after a normal end they are
//    credited as they are reported.
// 6. Flow control, sending: `sendBody` sends what the stream and connection windows allow, in
//    frames of the server's SETTINGS_MAX_FRAME_SIZE, and says how much; `sendWindowAvailable`
//    reports when more may go. A window taken above 2^31 - 1 is a FLOW_CONTROL_ERROR.
// 7. PING is answered with PING ACK; PRIORITY is checked and otherwise ignored; frames of unknown
//    type and unknown SETTINGS are ignored (§4.1, §5.5); PUSH_PROMISE is a connection error, since
//    push is disabled (§8.4).
// 8. GOAWAY: no new streams; the open streams above its last stream identifier were never
//    processed, so they close at once and are reported as safe to replay. A later GOAWAY may
//    only lower that identifier.
// 9. Frames that cost work but carry no response (SETTINGS, PING, RST_STREAM, PRIORITY, unknown
//    types, empty DATA/HEADERS/CONTINUATION that end nothing, field blocks for streams that have
//    ended) are metered against `controlFrameRate`; a flood is a connection error
//    ENHANCE_YOUR_CALM.
// 10. A stream error sends RST_STREAM with its code and fails that stream only. A connection
//    error sends GOAWAY with its code (last stream 0: the server opens no streams here) and fails
//    every open stream; the machine then ignores input and refuses streams. The driver writes the
//    pending output and closes.
// 11. Calls the driver cannot legally make (body for a stream it did not open or already ended,
//    consuming more than was delivered) trap with a message naming the stream.
// 12. Liveness, from `start(at:)` on, with time passed to `checkLiveness(at:)`: the server must
//    acknowledge this client's SETTINGS within `settingsAckTimeout`, else connection error
//    SETTINGS_TIMEOUT (§6.5.3). When nothing was read for `pingInterval` (streams open or not),
//    a PING goes out; its ACK must come within `pingAckTimeout`, else connection error
//    `pingTimeout`. Any bytes read restart the interval; only the matching ACK answers the PING.
//    `nextLivenessCheck` says when to look again.

public import WickCore

/// The HTTP/2 logic of one client connection. The driver feeds it bytes read and the client's
/// calls, writes `takePendingOutput()` to the socket after each, and acts on the events; the
/// rules are at the top of this file.
///
/// ```swift
/// var machine = HTTP2ConnectionStateMachine(configuration: .init())
/// write(machine.takePendingOutput())                    // preface + SETTINGS
/// machine.start(at: .now())                             // liveness clocks (rule 12)
/// let id = try machine.openStream(head, endStream: true) // HEADERS queued
/// for event in machine.bytesReceived(buffer, at: .now()) { deliver(event) }
/// machine.bodyConsumed(n, on: id)                        // as the consumer drains
/// write(machine.takePendingOutput())                    // SETTINGS ACK, WINDOW_UPDATE, ...
/// // At machine.nextLivenessCheck: a PING may go out, or the connection fails.
/// for event in machine.checkLiveness(at: .now()) { deliver(event) }
/// ```
///
/// Not thread-safe: it belongs to the connection's event loop, as the HTTP/1.1 machine does.
public struct HTTP2ConnectionStateMachine: Sendable {
    /// The limits and settings this connection runs with.
    public let configuration: HTTP2Configuration

    /// Where the connection is in its life.
    enum Phase: Sendable, Equatable {
        /// Waiting for the server's first SETTINGS frame (rule 1).
        case awaitingServerSettings
        /// Streams can be opened.
        case active
        /// GOAWAY received or sent by `closeGracefully`: the open streams finish, no new ones
        /// start.
        case goingAway
        /// A connection error or the transport's end: nothing more happens.
        case closed
    }

    /// A field block being collected from HEADERS and CONTINUATION frames (rule 3).
    struct FieldBlockInProgress: Sendable {
        let streamID: HTTP2StreamID
        let endStream: Bool
        let priority: HTTP2Priority?
        var bytes: [UInt8]
        var continuationFrames = 0
    }

    var phase = Phase.awaitingServerSettings
    var parser: HTTP2FrameParser
    var decoder: HPACKDecoder
    var encoder: HPACKEncoder
    /// The server's SETTINGS in force.
    public internal(set) var remoteSettings = HTTP2Settings()
    /// True once the server acknowledged this client's SETTINGS.
    var localSettingsAcknowledged = false
    /// The streams this client opened that are not closed, reset or failed.
    var streams: [HTTP2StreamID: HTTP2StreamState] = [:]
    /// Streams that ended normally with body bytes the consumer has not reported consumed yet.
    var drainingStreams: [HTTP2StreamID: Int] = [:]
    /// The last stream identifier of the server's latest GOAWAY (rule 8).
    var serverLastStreamID: HTTP2StreamID?
    /// The identifier the next stream gets.
    var nextStreamID: UInt32 = 1
    var fieldBlock: FieldBlockInProgress?
    /// Bytes this client may still send on the connection.
    var connectionSendWindow = 65_535
    /// Bytes the server may still send on the connection.
    var connectionReceiveWindow = 65_535
    /// Bytes consumed (or ignored) not yet returned to the server in a connection WINDOW_UPDATE.
    var connectionPendingCredit = 0
    var controlFrameMeter: HTTP2FrameRateMeter
    /// The clocks of rule 12; nil until `start(at:)`.
    var liveness: LivenessClocks?
    /// Frames waiting to be written, in order. After `takePendingOutput` handed them out their
    /// bytes stay here (the writer holds them too) but count as gone: the next frame clears
    /// them first, keeping the storage when the writer has let go of it (after its flush), so
    /// a connection in steady use allocates no output buffer per request.
    var output: [UInt8] = []
    var isOutputTaken = false

    /// A connection with `configuration`; the client preface, SETTINGS and the connection
    /// WINDOW_UPDATE are queued in the pending output.
    public init(configuration: HTTP2Configuration = HTTP2Configuration()) {
        precondition(
            configuration.initialStreamWindowSize >= 0
                && configuration.initialStreamWindowSize <= HTTP2Settings.maxWindowSize
                && configuration.connectionWindowSize >= 65_535
                && configuration.connectionWindowSize <= HTTP2Settings.maxWindowSize,
            "flow-control windows out of range: \(configuration)")
        precondition(configuration.maxConcurrentStreams > 0, "maxConcurrentStreams must be positive")
        precondition(
            configuration.settingsAckTimeout > .zero && configuration.pingAckTimeout > .zero
                && (configuration.pingInterval ?? .seconds(1)) > .zero,
            "liveness durations must be positive: \(configuration)")
        self.configuration = configuration
        parser = HTTP2FrameParser(maxFrameSize: configuration.maxFrameSize)
        decoder = HPACKDecoder(
            maxTableSize: configuration.headerTableSize, maxHeaderListSize: configuration.maxHeaderListSize)
        encoder = HPACKEncoder(maxTableSize: configuration.encoderTableSize)
        controlFrameMeter = HTTP2FrameRateMeter(limit: configuration.controlFrameRate)

        output.append(contentsOf: HTTP2FrameEncoder.clientPreface)
        let settings = [
            HTTP2Setting(.enablePush, 0),
            HTTP2Setting(.headerTableSize, UInt32(configuration.headerTableSize)),
            HTTP2Setting(.initialWindowSize, UInt32(configuration.initialStreamWindowSize)),
            HTTP2Setting(.maxFrameSize, UInt32(configuration.maxFrameSize)),
            HTTP2Setting(.maxHeaderListSize, UInt32(configuration.maxHeaderListSize)),
        ]
        write(.connection, .settings(settings))
        let raise = configuration.connectionWindowSize - connectionReceiveWindow
        if raise > 0 {
            write(.connection, .windowUpdate(increment: raise))
            connectionReceiveWindow += raise
        }
    }

    // MARK: - Output

    /// True when frames wait to be written.
    public var hasPendingOutput: Bool { !isOutputTaken && !output.isEmpty }

    /// The bytes to write now, in order; the queue is emptied.
    public mutating func takePendingOutput() -> [UInt8] {
        guard !isOutputTaken else { return [] }
        isOutputTaken = true
        return output
    }

    mutating func write(_ streamID: HTTP2StreamID, _ payload: HTTP2Frame.Payload) {
        reserveOutput(HTTP2FrameParser.frameHeaderLength + 8)
        HTTP2FrameEncoder.encode(HTTP2Frame(streamID: streamID, payload: payload), into: &output)
    }

    /// Makes room for `count` more output bytes, first clearing frames `takePendingOutput`
    /// handed out. An empty queue without storage gets at least `minimumOutputCapacity`, so the
    /// small frames of a request and its flow control share one allocation instead of growing
    /// it step by step. Every frame is queued after it.
    private mutating func reserveOutput(_ count: Int) {
        if isOutputTaken {
            // A large burst's storage (an upload's DATA) is not kept for the small frames after.
            if output.capacity > Self.keptOutputCapacity {
                output = []
            } else {
                output.removeAll(keepingCapacity: true)
            }
            isOutputTaken = false
        }
        let needed = output.count + count
        guard needed > output.capacity else { return }
        output.reserveCapacity(max(needed, output.isEmpty ? Self.minimumOutputCapacity : 2 * output.capacity))
    }

    /// The first allocation of an output queue: room for a request's HEADERS with a typical
    /// header block and a few control frames.
    static let minimumOutputCapacity = 512
    /// The most output storage kept for reuse once its frames were handed out.
    static let keptOutputCapacity = 64 * 1024

    // MARK: - Streams

    /// How many more streams may be opened now (0 while going away or closed).
    public var availableStreamCapacity: Int {
        switch phase {
        case .awaitingServerSettings, .active:
            let limit = min(configuration.maxConcurrentStreams, remoteSettings.maxConcurrentStreams ?? Int.max)
            return max(0, limit - streams.count)
        case .goingAway, .closed:
            return 0
        }
    }

    /// The streams open now, in identifier order.
    public var openStreams: [HTTP2StreamID] { streams.keys.sorted() }

    /// True when no stream is open and no more can be: the driver may close the socket.
    public var isFinished: Bool {
        switch phase {
        case .closed: true
        case .goingAway: streams.isEmpty
        case .awaitingServerSettings, .active: false
        }
    }

    /// Opens a stream for `head`: HEADERS (and CONTINUATION when the block exceeds the server's
    /// frame size) are queued, with END_STREAM when `endStream` (no body follows).
    ///
    /// - Returns: the new stream's identifier.
    /// - Throws: `HTTP2RequestError` when the connection cannot take the request (nothing was
    ///   written or encoded) or the head holds bytes HTTP/2 cannot carry.
    public mutating func openStream(_ head: HTTP2RequestHead, endStream: Bool) throws(HTTP2RequestError)
        -> HTTP2StreamID
    {
        switch phase {
        case .awaitingServerSettings, .active: break
        case .goingAway: throw .connectionGoingAway
        case .closed: throw .connectionClosed
        }
        guard availableStreamCapacity > 0 else { throw .streamLimitReached }
        guard nextStreamID <= HTTP2StreamID.max.rawValue else { throw .streamIDsExhausted }
        // Validated and measured as they are encoded, in one walk; a refused request abandons
        // the block, which leaves the HPACK state as it was.
        try encoder.startBlock { (encoder) throws(HTTP2RequestError) in
            try HTTP2RequestFields.walk(head, into: &encoder)
        }
        if let limit = remoteSettings.maxHeaderListSize, encoder.blockListSize > limit {
            let size = encoder.blockListSize
            encoder.abandonBlock()
            throw .headerListTooLarge(size: size, limit: limit)
        }
        encoder.endBlock()
        let streamID = HTTP2StreamID(rawValue: nextStreamID)
        nextStreamID += 2
        streams[streamID] = HTTP2StreamState(
            isHeadRequest: head.method == .head, localOpen: !endStream,
            sendWindow: remoteSettings.initialWindowSize, receiveWindow: effectiveLocalInitialWindow)
        writeFieldBlock(on: streamID, endStream: endStream)
        return streamID
    }

    /// The per-stream window the server may be using: this client's setting once acknowledged,
    /// until then the larger of it and the default (rule 1).
    var effectiveLocalInitialWindow: Int {
        localSettingsAcknowledged
            ? configuration.initialStreamWindowSize : max(configuration.initialStreamWindowSize, 65_535)
    }

    /// Queues the encoder's header block as HEADERS plus as many CONTINUATION frames as the
    /// server's SETTINGS_MAX_FRAME_SIZE needs.
    private mutating func writeFieldBlock(on streamID: HTTP2StreamID, endStream: Bool) {
        let block = encoder.block
        let frameSize = remoteSettings.maxFrameSize
        reserveOutput(block.count + (block.count / frameSize + 1) * HTTP2FrameParser.frameHeaderLength)
        var start = 0
        repeat {
            let end = min(block.count, start + frameSize)
            let isLast = end == block.count
            if start == 0 {
                HTTP2FrameEncoder.encodeHeaders(
                    stream: streamID, fragment: block[start..<end], endStream: endStream, endHeaders: isLast,
                    into: &output)
            } else {
                HTTP2FrameEncoder.encodeContinuation(
                    stream: streamID, fragment: block[start..<end], endHeaders: isLast, into: &output)
            }
            start = end
        } while start < block.count
    }

    /// Sends as much of `bytes` as the flow-control windows allow on `streamID`, with END_STREAM
    /// on the last frame when `endStream` and everything was sent.
    ///
    /// - Returns: how many bytes were queued, and whether the stream closed (both sides ended:
    ///   its slot is free). When fewer bytes than offered were queued, wait for
    ///   `sendWindowAvailable` and call again with the rest.
    public mutating func sendBody(_ bytes: ArraySlice<UInt8>, on streamID: HTTP2StreamID, endStream: Bool) -> (
        sent: Int, streamClosed: Bool
    ) {
        guard phase != .closed else { return (0, false) }
        guard var stream = streams[streamID], stream.localOpen else {
            preconditionFailure("sendBody on stream \(streamID), which is not open for sending")
        }
        let allowed = min(bytes.count, max(0, min(stream.sendWindow, connectionSendWindow)))
        var start = bytes.startIndex
        let end = bytes.startIndex + allowed
        let finishes = endStream && allowed == bytes.count
        let frameSize = remoteSettings.maxFrameSize
        reserveOutput(allowed + (allowed / frameSize + 1) * HTTP2FrameParser.frameHeaderLength)
        repeat {
            let chunkEnd = min(end, start + remoteSettings.maxFrameSize)
            let isLast = chunkEnd == end
            if chunkEnd > start || (isLast && finishes) {
                HTTP2FrameEncoder.encodeData(
                    stream: streamID, bytes: bytes[start..<chunkEnd], endStream: isLast && finishes, into: &output)
            }
            start = chunkEnd
        } while start < end
        stream.sendWindow -= allowed
        connectionSendWindow -= allowed
        stream.waitsForSendWindow = allowed < bytes.count
        if finishes { stream.localOpen = false }
        streams[streamID] = stream
        return (allowed, finishes && closeIfDone(streamID))
    }

    /// Sends trailers and ends the client's side of `streamID`.
    ///
    /// - Returns: whether the stream closed (both sides ended).
    /// - Throws: `HTTP2RequestError.invalidFieldName` / `invalidFieldValue` (nothing sent).
    public mutating func sendTrailers(_ trailers: HTTPHeaders, on streamID: HTTP2StreamID) throws(HTTP2RequestError)
        -> Bool
    {
        guard phase != .closed else { return false }
        guard var stream = streams[streamID], stream.localOpen else {
            preconditionFailure("sendTrailers on stream \(streamID), which is not open for sending")
        }
        // Validated as they are encoded; refused trailers leave the HPACK state as it was, as
        // in `openStream`.
        try encoder.startBlock { (encoder) throws(HTTP2RequestError) in
            try HTTP2RequestFields.walkTrailers(trailers, into: &encoder)
        }
        encoder.endBlock()
        writeFieldBlock(on: streamID, endStream: true)
        stream.localOpen = false
        streams[streamID] = stream
        return closeIfDone(streamID)
    }

    /// Cancels `streamID` (RST_STREAM with `code`, CANCEL by default); the stream's unconsumed
    /// bytes return to the connection window (rule 5). Nothing happens for a stream that has
    /// already ended.
    public mutating func resetStream(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode = .cancel) {
        drainingStreams[streamID] = nil
        guard phase != .closed, streams[streamID] != nil else { return }
        write(streamID, .rstStream(code))
        discardStream(streamID)
    }

    /// Reports that the consumer is done with `count` body bytes of `streamID`: WINDOW_UPDATEs
    /// follow once half a window is consumed (rule 5).
    public mutating func bodyConsumed(_ count: Int, on streamID: HTTP2StreamID) {
        precondition(count >= 0, "negative consumption")
        guard phase != .closed, count > 0 else { return }
        if var stream = streams[streamID] {
            precondition(
                count <= stream.unconsumedBytes,
                "stream \(streamID): \(count) bytes consumed, \(stream.unconsumedBytes) delivered")
            stream.unconsumedBytes -= count
            streams[streamID] = stream
            creditStream(streamID, count)
        } else if let unconsumed = drainingStreams[streamID] {
            precondition(count <= unconsumed, "stream \(streamID): \(count) bytes consumed, \(unconsumed) delivered")
            drainingStreams[streamID] = unconsumed == count ? nil : unconsumed - count
        } else {
            return  // A stream that ended abnormally: its bytes were credited already.
        }
        creditConnection(count)
    }

    /// Queues a PING; the server's ACK is reported as `pingAcknowledged`.
    public mutating func sendPing(opaqueData: UInt64) {
        guard phase != .closed else { return }
        write(.connection, .ping(opaqueData: opaqueData, ack: false))
    }

    /// Starts a graceful close: GOAWAY (NO_ERROR) is queued and no new streams open; the open
    /// ones finish (`isFinished` says when).
    public mutating func closeGracefully() {
        switch phase {
        case .awaitingServerSettings, .active:
            write(.connection, .goAway(lastStreamID: .connection, errorCode: .noError, debugData: []))
            phase = .goingAway
        case .goingAway, .closed:
            return
        }
    }

    /// The transport closed (EOF or an error): every open stream ends with it.
    public mutating func connectionClosed() -> [HTTP2ConnectionEvent] {
        guard phase != .closed else { return [] }
        phase = .closed
        let open = openStreams
        streams = [:]
        drainingStreams = [:]
        return [.connectionClosed(openStreams: open)]
    }

    // MARK: - Shared bookkeeping

    /// Adds consumed or ignored bytes to the connection's credit, sending WINDOW_UPDATE once half
    /// the connection window has been consumed.
    mutating func creditConnection(_ count: Int) {
        connectionPendingCredit += count
        if connectionPendingCredit >= configuration.connectionWindowSize / 2 {
            write(.connection, .windowUpdate(increment: connectionPendingCredit))
            connectionReceiveWindow += connectionPendingCredit
            connectionPendingCredit = 0
        }
    }

    /// Adds consumed bytes or padding to an open stream's credit, sending WINDOW_UPDATE once half
    /// the stream window has been consumed; nothing once the server has ended the stream.
    mutating func creditStream(_ streamID: HTTP2StreamID, _ count: Int) {
        guard var stream = streams[streamID], !stream.isRemoteClosed else { return }
        stream.pendingWindowCredit += count
        if stream.pendingWindowCredit >= max(1, configuration.initialStreamWindowSize / 2) {
            write(streamID, .windowUpdate(increment: stream.pendingWindowCredit))
            stream.receiveWindow += stream.pendingWindowCredit
            stream.pendingWindowCredit = 0
        }
        streams[streamID] = stream
    }

    /// Removes a stream that ended abnormally, crediting its unconsumed bytes (rule 5).
    mutating func discardStream(_ streamID: HTTP2StreamID) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        if stream.unconsumedBytes > 0 { creditConnection(stream.unconsumedBytes) }
    }

    /// Removes a stream whose both sides have ended; its unconsumed bytes wait in
    /// `drainingStreams`. Returns whether it closed.
    mutating func closeIfDone(_ streamID: HTTP2StreamID) -> Bool {
        guard let stream = streams[streamID], stream.isClosed else { return false }
        streams[streamID] = nil
        if stream.unconsumedBytes > 0 { drainingStreams[streamID] = stream.unconsumedBytes }
        return true
    }
}
