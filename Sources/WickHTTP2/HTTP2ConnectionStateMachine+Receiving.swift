// The read side of the connection state machine: each frame the server sends, by the rules at
// the top of HTTP2ConnectionStateMachine.swift.

public import WickCore

extension HTTP2ConnectionStateMachine {
    /// Feeds bytes read from the socket; `now` meters control frames (rule 9).
    ///
    /// - Returns: what happened, in order. Frames to write (ACKs, WINDOW_UPDATEs, RST_STREAM,
    ///   GOAWAY) are queued in the pending output. After `connectionFailed` the machine ignores
    ///   input.
    public mutating func bytesReceived(_ bytes: ArraySlice<UInt8>, at now: Deadline) -> [HTTP2ConnectionEvent] {
        var events: [HTTP2ConnectionEvent] = []
        receive(bytes, at: now, into: &events)
        return events
    }

    /// Feeds bytes read from the socket, as `bytesReceived(_:at:)`, appending what happened to
    /// `events`: a driver passes the same emptied array each time and the socket's read buffer
    /// itself (copied into the machine's own), so a read allocates neither.
    public mutating func bytesReceived(
        _ bytes: UnsafeBufferPointer<UInt8>, at now: Deadline, into events: inout [HTTP2ConnectionEvent]
    ) {
        receive(bytes, at: now, into: &events)
    }

    private mutating func receive(
        _ bytes: some Collection<UInt8>, at now: Deadline, into events: inout [HTTP2ConnectionEvent]
    ) {
        guard phase != .closed else { return }
        parser.append(bytes)
        controlFrameMeter.advance(to: now)
        if !bytes.isEmpty { livenessBytesReceived(at: now) }
        while phase != .closed {
            do {
                guard let frame = try parser.nextFrame() else { break }
                try frameReceived(frame, events: &events)
            } catch {
                if error.isConnectionError {
                    fail(error, events: &events)
                } else if fieldBlock != nil {
                    // The parser's stream errors come from frames that may not sit in a field block.
                    fail(.connection(.expectedContinuation, code: .protocolError), events: &events)
                } else if let streamID = error.streamID {
                    if error.kind == .zeroWindowIncrement && status(of: streamID) == .idle {
                        fail(.connection(.frameOnIdleStream, code: .protocolError), events: &events)
                    } else {
                        failStream(streamID, error, events: &events)
                    }
                }
            }
        }
    }

    /// Ends the connection for a connection error (rule 10).
    mutating func fail(_ error: HTTP2ProtocolError, events: inout [HTTP2ConnectionEvent]) {
        write(
            .connection,
            .goAway(lastStreamID: .connection, errorCode: error.code, debugData: Array(error.kind.rawValue.utf8)))
        phase = .closed
        let open = openStreams
        streams = [:]
        drainingStreams = [:]
        fieldBlock = nil
        events.append(.connectionFailed(error, openStreams: open))
    }

    /// Resets one stream for a stream error (rule 10); a stream no longer open is left alone.
    private mutating func failStream(
        _ streamID: HTTP2StreamID, _ error: HTTP2ProtocolError, events: inout [HTTP2ConnectionEvent]
    ) {
        guard streams[streamID] != nil else { return }
        write(streamID, .rstStream(error.code))
        discardStream(streamID)
        events.append(.streamFailed(streamID, error))
    }

    /// What the client knows of a stream identifier the server used.
    private enum StreamStatus {
        /// Opened and not ended.
        case open
        /// Opened earlier and since closed, reset or failed (rule 4).
        case ended
        /// Never opened by this client (idle, or even-numbered).
        case idle
    }

    private func status(of streamID: HTTP2StreamID) -> StreamStatus {
        if streams[streamID] != nil { return .open }
        if streamID.isClientInitiated && streamID.rawValue < nextStreamID { return .ended }
        return .idle
    }

    /// Meters a frame that costs work but carries no response (rule 9).
    private mutating func meterControlFrame() throws(HTTP2ProtocolError) {
        guard controlFrameMeter.admit() else { throw .connection(.controlFrameFlood, code: .enhanceYourCalm) }
    }

    private mutating func frameReceived(_ frame: HTTP2Frame, events: inout [HTTP2ConnectionEvent])
        throws(HTTP2ProtocolError)
    {
        if phase == .awaitingServerSettings {
            guard case .settings = frame.payload else { throw .connection(.missingServerPreface, code: .protocolError) }
        }
        if let block = fieldBlock {
            guard case .continuation(let fragment, let endHeaders) = frame.payload, frame.streamID == block.streamID
            else {
                throw .connection(.expectedContinuation, code: .protocolError)
            }
            try continuationReceived(fragment, endHeaders: endHeaders, events: &events)
            return
        }
        let streamID = frame.streamID
        switch frame.payload {
        case .data(let bytes, let endStream, let paddingLength):
            if bytes.isEmpty && !endStream { try meterControlFrame() }
            try dataReceived(
                bytes, endStream: endStream, flowControlledLength: frame.payload.flowControlledLength,
                paddingLength: paddingLength, on: streamID, events: &events)
        case .headers(let headers):
            if headers.fieldBlockFragment.isEmpty && !headers.endHeaders && !headers.endStream {
                try meterControlFrame()
            }
            guard status(of: streamID) != .idle else { throw .connection(.serverInitiatedStream, code: .protocolError) }
            let block = FieldBlockInProgress(
                streamID: streamID, endStream: headers.endStream, priority: headers.priority,
                bytes: headers.fieldBlockFragment)
            guard block.bytes.count <= configuration.maxFieldBlockBytes else {
                throw .connection(.fieldBlockTooLarge, code: .enhanceYourCalm)
            }
            fieldBlock = block
            if headers.endHeaders { try fieldBlockCompleted(events: &events) }
        case .priority(let priority):
            try meterControlFrame()
            if priority.dependency == streamID && status(of: streamID) == .open {
                throw .stream(streamID, .streamDependsOnItself, code: .protocolError)
            }
        case .rstStream(let code):
            try meterControlFrame()
            switch status(of: streamID) {
            case .idle: throw .connection(.frameOnIdleStream, code: .protocolError)
            case .ended: return
            case .open:
                let responseComplete = streams[streamID]!.isRemoteClosed
                discardStream(streamID)
                events.append(.streamReset(streamID, code, responseComplete: responseComplete))
            }
        case .settings(let settings):
            try meterControlFrame()
            try settingsReceived(settings, events: &events)
        case .settingsAck:
            try meterControlFrame()
            settingsAcknowledged()
        case .pushPromise:
            throw .connection(.pushPromiseRefused, code: .protocolError)
        case .ping(let opaqueData, let ack):
            try meterControlFrame()
            if ack {
                livenessPingAcknowledged(opaqueData: opaqueData)
                events.append(.pingAcknowledged(opaqueData: opaqueData))
            } else {
                write(.connection, .ping(opaqueData: opaqueData, ack: true))
            }
        case .goAway(let lastStreamID, let errorCode, let debugData):
            try goAwayReceived(lastStreamID: lastStreamID, errorCode: errorCode, debugData: debugData, events: &events)
        case .windowUpdate(let increment):
            try windowUpdateReceived(increment, on: streamID, events: &events)
        case .continuation:
            throw .connection(.unexpectedContinuation, code: .protocolError)
        case .unknown:
            try meterControlFrame()
        }
    }

    // MARK: - DATA and flow control (rule 5)

    private mutating func dataReceived(
        _ bytes: ArraySlice<UInt8>, endStream: Bool, flowControlledLength: Int, paddingLength: Int?,
        on streamID: HTTP2StreamID, events: inout [HTTP2ConnectionEvent]
    ) throws(HTTP2ProtocolError) {
        let streamStatus = status(of: streamID)
        guard streamStatus != .idle else { throw .connection(.frameOnIdleStream, code: .protocolError) }
        guard flowControlledLength <= connectionReceiveWindow else {
            throw .connection(.flowControlWindowExceeded, code: .flowControlError)
        }
        connectionReceiveWindow -= flowControlledLength
        guard streamStatus == .open, var stream = streams[streamID] else {
            creditConnection(flowControlledLength)  // A stream that has ended (rule 4).
            return
        }
        guard flowControlledLength <= stream.receiveWindow else {
            creditConnection(flowControlledLength)
            throw .stream(streamID, .flowControlWindowExceeded, code: .flowControlError)
        }
        stream.receiveWindow -= flowControlledLength
        let padding = flowControlledLength - bytes.count
        do {
            let event = try stream.dataReceived(bytes, endStream: endStream, on: streamID)
            stream.unconsumedBytes += bytes.count
            streams[streamID] = stream
            if padding > 0 {
                creditStream(streamID, padding)
                creditConnection(padding)
            }
            events.append(event)
            if endStream && closeIfDone(streamID) { events.append(.streamClosed(streamID)) }
        } catch {
            streams[streamID] = stream
            creditConnection(flowControlledLength)
            throw error
        }
    }

    private mutating func windowUpdateReceived(
        _ increment: Int, on streamID: HTTP2StreamID, events: inout [HTTP2ConnectionEvent]
    ) throws(HTTP2ProtocolError) {
        if streamID.isConnection {
            guard connectionSendWindow + increment <= HTTP2Settings.maxWindowSize else {
                throw .connection(.flowControlWindowOverflow, code: .flowControlError)
            }
            let wasClosed = connectionSendWindow <= 0
            connectionSendWindow += increment
            if wasClosed || connectionSendWindow > 0 { announceSendWindows(events: &events) }
            return
        }
        switch status(of: streamID) {
        case .idle: throw .connection(.frameOnIdleStream, code: .protocolError)
        case .ended: return
        case .open:
            guard var stream = streams[streamID] else { return }
            guard stream.sendWindow + increment <= HTTP2Settings.maxWindowSize else {
                throw .stream(streamID, .flowControlWindowOverflow, code: .flowControlError)
            }
            stream.sendWindow += increment
            streams[streamID] = stream
            announceSendWindows(only: streamID, events: &events)
        }
    }

    /// Reports `sendWindowAvailable` for streams waiting to send whose windows (and the
    /// connection's) are open now.
    private mutating func announceSendWindows(only streamID: HTTP2StreamID? = nil, events: inout [HTTP2ConnectionEvent])
    {
        guard connectionSendWindow > 0 else { return }
        let candidates = streamID.map { [$0] } ?? openStreams
        for id in candidates {
            guard var stream = streams[id], stream.waitsForSendWindow, stream.localOpen, stream.sendWindow > 0 else {
                continue
            }
            stream.waitsForSendWindow = false
            streams[id] = stream
            events.append(.sendWindowAvailable(id))
        }
    }

    // MARK: - Field blocks (rule 3)

    private mutating func continuationReceived(
        _ fragment: [UInt8], endHeaders: Bool, events: inout [HTTP2ConnectionEvent]
    ) throws(HTTP2ProtocolError) {
        guard var block = fieldBlock else { throw .connection(.unexpectedContinuation, code: .protocolError) }
        if fragment.isEmpty && !endHeaders { try meterControlFrame() }
        block.continuationFrames += 1
        guard block.continuationFrames <= configuration.maxContinuationFrames else {
            throw .connection(.tooManyContinuationFrames, code: .enhanceYourCalm)
        }
        guard fragment.count <= configuration.maxFieldBlockBytes - block.bytes.count else {
            throw .connection(.fieldBlockTooLarge, code: .enhanceYourCalm)
        }
        block.bytes += fragment
        fieldBlock = block
        if endHeaders { try fieldBlockCompleted(events: &events) }
    }

    private mutating func fieldBlockCompleted(events: inout [HTTP2ConnectionEvent]) throws(HTTP2ProtocolError) {
        guard let block = fieldBlock else { preconditionFailure("field block completed without one in progress") }
        fieldBlock = nil
        let streamID = block.streamID
        let fields: HPACKFieldBlock
        do {
            fields = try decoder.decode(block.bytes[...])
        } catch {
            guard error.kind == .headerListTooLarge else {
                throw .connection(.compressionFailed, code: .compressionError, hpackError: error)
            }
            throw .stream(streamID, .headerListTooLarge, code: .protocolError)
        }
        guard var stream = streams[streamID] else {
            // Ended: decoded only to keep HPACK in step, work without a response (rule 9).
            try meterControlFrame()
            return
        }
        if block.priority?.dependency == streamID {
            throw .stream(streamID, .streamDependsOnItself, code: .protocolError)
        }
        let event = try stream.fieldBlockReceived(fields, endStream: block.endStream, on: streamID)
        streams[streamID] = stream
        events.append(event)
        if block.endStream && closeIfDone(streamID) { events.append(.streamClosed(streamID)) }
    }

    // MARK: - SETTINGS (rule 1)

    private mutating func settingsReceived(_ settings: [HTTP2Setting], events: inout [HTTP2ConnectionEvent])
        throws(HTTP2ProtocolError)
    {
        var windowDelta = 0
        for setting in settings {
            let value = Int(setting.value)
            switch setting.identifier {
            case .headerTableSize:
                remoteSettings.headerTableSize = value
                encoder.setPeerMaxTableSize(value)
            case .enablePush:
                guard value == 0 else { throw .connection(.invalidSettingValue, code: .protocolError) }
                remoteSettings.enablePush = false
            case .maxConcurrentStreams:
                remoteSettings.maxConcurrentStreams = value
            case .initialWindowSize:
                windowDelta += value - remoteSettings.initialWindowSize
                remoteSettings.initialWindowSize = value
            case .maxFrameSize:
                remoteSettings.maxFrameSize = value
            case .maxHeaderListSize:
                remoteSettings.maxHeaderListSize = value
            default:
                continue
            }
        }
        if windowDelta != 0 {
            // §6.9.2: the change applies to every open stream's window, possibly below zero.
            for id in openStreams {
                guard streams[id]!.sendWindow + windowDelta <= HTTP2Settings.maxWindowSize else {
                    throw .connection(.flowControlWindowOverflow, code: .flowControlError)
                }
                streams[id]!.sendWindow += windowDelta
            }
        }
        write(.connection, .settingsAck)
        if phase == .awaitingServerSettings { phase = .active }
        events.append(.remoteSettingsChanged(remoteSettings))
        if windowDelta > 0 { announceSendWindows(events: &events) }
    }

    /// The server applied this client's SETTINGS: its own limits bind from now on (rule 1).
    private mutating func settingsAcknowledged() {
        guard !localSettingsAcknowledged else { return }
        livenessSettingsAcknowledged()
        let before = effectiveLocalInitialWindow
        localSettingsAcknowledged = true
        let delta = effectiveLocalInitialWindow - before
        if delta != 0 {
            for id in openStreams { streams[id]!.receiveWindow += delta }
        }
        decoder.setMaxTableSize(configuration.headerTableSize)
    }

    // MARK: - GOAWAY (rule 8)

    private mutating func goAwayReceived(
        lastStreamID: HTTP2StreamID, errorCode: HTTP2ErrorCode, debugData: [UInt8], events: inout [HTTP2ConnectionEvent]
    ) throws(HTTP2ProtocolError) {
        if let previous = serverLastStreamID, lastStreamID > previous {
            throw .connection(.goAwayLastStreamIncreased, code: .protocolError)
        }
        serverLastStreamID = lastStreamID
        phase = .goingAway
        let unprocessed = openStreams.filter { $0 > lastStreamID }
        for id in unprocessed { discardStream(id) }
        events.append(
            .goAway(
                HTTP2GoAway(
                    lastStreamID: lastStreamID, errorCode: errorCode, debugData: debugData,
                    unprocessedStreams: unprocessed)))
    }
}
