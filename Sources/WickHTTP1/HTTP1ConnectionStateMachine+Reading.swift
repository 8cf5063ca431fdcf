// The response side of the HTTP/1.1 connection state machine: bytes read, EOF, backpressure.

extension HTTP1ConnectionStateMachine {
    /// Feeds bytes read from the socket and returns the next action they cause.
    ///
    /// Call it again with the same `bytes` until it returns nil: the buffer has then been used up
    /// (or the rest dropped, because the connection closes). `.inReadBuffer` ranges index `bytes`.
    /// The parser, and the content decoder when the request asked for decoding, run inside.
    ///
    /// Returns, among others: `.closeConnection(.unsolicitedBytes)` when no request is in
    /// progress; `.forwardResponseHead`, `.forwardResponseBody`, `.forwardResponseTrailers`; the
    /// request's `.finishRequest` at the end of the response or on a parse or decoding error.
    public mutating func bytesRead(_ bytes: UnsafeRawBufferPointer) -> HTTP1ConnectionAction? {
        let isNewBuffer = !isReadInProgress
        if isNewBuffer {
            isReadInProgress = true
            readCursor = 0
            readBufferCount = bytes.count
        } else {
            precondition(
                bytes.count == readBufferCount,
                "bytesRead: a buffer of \(bytes.count) bytes while one of \(readBufferCount) is unfinished"
            )
        }
        switch state {
        case .idle:
            guard readCursor < bytes.count else { return endOfBuffer() }
            state = .closed
            readCursor = bytes.count
            return .closeConnection(.unsolicitedBytes)
        case .closed:
            if isNewBuffer { trap("bytesRead(\(bytes.count) bytes)", "nothing may be read after the close") }
            return endOfBuffer()
        case .exchanging(let exchange):
            return parse(bytes, exchange)
        }
    }

    /// How many bytes the next read may bring that are all body bytes forwarded as they are
    /// (`.inReadBuffer`): the rest of a `Content-Length` body or of a chunk's data, while a
    /// response is read without a content decoder and no read is in progress. Nil otherwise.
    /// The driver lets such a read land in the consumer's own memory. `mutating` for the reason
    /// `isClosed` is: read through a class, the machine is lent in place, not copied. Changes
    /// nothing.
    public var undecodedBodyBytesExpected: UInt64? {
        mutating get {
            guard !isReadInProgress, case .exchanging(let exchange) = state, !exchange.readingPaused,
                case .receivingBody(_, decoding: false) = exchange.response
            else { return nil }
            return parser.bodyBytesExpected
        }
    }

    /// The server closed the connection (read returned 0).
    ///
    /// - Returns: `.finishRequest`: success for a close-delimited body (the connection closes);
    ///   `closedBeforeResponse` when no response byte arrived; `invalidResponse(unexpectedEOF)`
    ///   mid-response. `.closeConnection(.closedByServer)` when no request is in progress.
    public mutating func eofRead() -> HTTP1ConnectionAction {
        switch state {
        case .idle:
            state = .closed
            return .closeConnection(.closedByServer)
        case .closed:
            trap("eofRead()", "nothing may be read after the close")
        case .exchanging(let exchange):
            do {
                guard case .end = try parser.eofReceived() else {
                    trap("eofRead()", "the parser had no response in progress")
                }
            } catch {
                let failure: HTTP1ConnectionError =
                    exchange.responseBytesReceived == 0 ? .closedBeforeResponse : .invalidResponse(error)
                return finish(exchange, failure: failure)
            }
            return responseEnded(exchange, allowsReuse: false, bytesFollow: false)
        }
    }

    /// The response consumer cannot take more body bytes for now.
    ///
    /// - Returns: `.pauseReading`, or `.none` if reading is paused already or no request is in
    ///   progress.
    public mutating func responseConsumerBecameFull() -> HTTP1ConnectionAction {
        guard case .exchanging(var exchange) = state, !exchange.readingPaused else { return .none }
        exchange.readingPaused = true
        state = .exchanging(exchange)
        return .pauseReading
    }

    /// The response consumer can take more body bytes.
    ///
    /// - Returns: `.resumeReading` if reading was paused, else `.none`.
    public mutating func demandMoreResponseBody() -> HTTP1ConnectionAction {
        guard case .exchanging(var exchange) = state, exchange.readingPaused else { return .none }
        exchange.readingPaused = false
        state = .exchanging(exchange)
        return .resumeReading
    }

    // MARK: - Parsing

    /// Forgets the buffer: the next `bytesRead` starts a new one.
    private mutating func endOfBuffer() -> HTTP1ConnectionAction? {
        isReadInProgress = false
        readCursor = 0
        return nil
    }

    /// Runs the parser from the cursor until an event needs an action or the bytes run out.
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, _ start: Exchange) -> HTTP1ConnectionAction? {
        var exchange = start
        while true {
            let base = readCursor
            // SAFETY: `bytes` is the read buffer, valid until this call returns, and readCursor <=
            // bytes.count: it is only ever set to base + step.consumed (the parser consumes at most
            // input.count) or to bytes.count. The parser does not keep `input` past `parse`.
            let input = UnsafeRawBufferPointer(rebasing: bytes[base...])
            let step: HTTPParseStep
            do {
                step = try parser.parse(input)
            } catch {
                exchange.responseBytesReceived += input.count
                readCursor = bytes.count
                return finish(exchange, failure: .invalidResponse(error))
            }
            readCursor = base + step.consumed
            exchange.responseBytesReceived += step.consumed
            // Consumed, so that a head moves into its action instead of being copied.
            let event = step.event
            switch consume event {
            case .needMoreData:
                state = .exchanging(exchange)
                return endOfBuffer()
            case .informationalHead(let head):
                // Rule 4: only 100 releases a held body; other 1xx (and a 100 nobody waits
                // for) are skipped.
                guard head.status == .continue, case .awaitingContinue(let progress) = exchange.request else {
                    continue
                }
                exchange.request = .sending(progress, producing: isWritable)
                state = .exchanging(exchange)
                return isWritable ? .produceRequestBody(cancelContinueTimer: true) : .cancelContinueTimer
            case .switchingProtocols(let head):
                readCursor = bytes.count
                return finish(exchange, failure: .unexpectedProtocolSwitch(status: head.status.rawValue))
            case .head(let head):
                let action = finalHeadArrived(head, &exchange)
                if case .finishRequest = action { readCursor = bytes.count }
                return action
            case .body(let range):
                let inBuffer = (base + range.lowerBound)..<(base + range.upperBound)
                guard case .receivingBody(_, decoding: true) = exchange.response else {
                    state = .exchanging(exchange)
                    return .forwardResponseBody(.inReadBuffer(inBuffer))
                }
                do {
                    // SAFETY: the parser reports a body range inside the `input` it was given, which
                    // starts at `base`, so inBuffer lies inside `bytes`; `decode` copies the bytes out
                    // before this call returns.
                    try decode(UnsafeRawBufferPointer(rebasing: bytes[inBuffer]))
                } catch {
                    readCursor = bytes.count
                    return finish(exchange, failure: .undecodableBody(error))
                }
                if decodedBuffer.isEmpty { continue }
                state = .exchanging(exchange)
                return .forwardResponseBody(.decoded(decodedBuffer[...]))
            case .trailers(let fields):
                state = .exchanging(exchange)
                return .forwardResponseTrailers(fields)
            case .end(let connectionReusable):
                let bytesFollow = readCursor < bytes.count
                readCursor = bytes.count
                return responseEnded(exchange, allowsReuse: connectionReusable, bytesFollow: bytesFollow)
            }
        }
    }

    /// The final head arrived: set up decoding, stop the body if rules 4 or 5 say so.
    private mutating func finalHeadArrived(_ head: consuming HTTPResponseHead, _ exchange: inout Exchange)
        -> HTTP1ConnectionAction
    {
        var decoding = false
        if let limits = exchange.decodingLimits, head.framing != .none, head.framing != .contentLength(0) {
            Self.collectContentCodings(in: head.fields, into: &codings)
            if !codings.isEmpty {
                do {
                    decoding = try prepareDecoder(codings: codings, limits: limits)
                } catch {
                    return finish(exchange, failure: .undecodableBody(error))
                }
            }
        }
        var stopRequestBody = false
        var cancelContinueTimer = false
        switch exchange.request {
        case .awaitingContinue:
            // Rule 4: a final response before 100 Continue; the body is never sent.
            exchange.request = .stopped
            (stopRequestBody, cancelContinueTimer) = (true, true)
        case .sending where head.status.rawValue >= 300:
            // Rule 5: the server will not use the body.
            exchange.request = .stopped
            stopRequestBody = true
        case .sending, .sent, .stopped:
            break
        }
        exchange.response = .receivingBody(framing: head.framing, decoding: decoding)
        state = .exchanging(exchange)
        return .forwardResponseHead(
            head,
            isBodyDecoded: decoding,
            stopRequestBody: stopRequestBody,
            cancelContinueTimer: cancelContinueTimer
        )
    }

    /// The parser reported the end: finish the decoder, then complete the request.
    private mutating func responseEnded(_ exchange: Exchange, allowsReuse: Bool, bytesFollow: Bool)
        -> HTTP1ConnectionAction
    {
        if case .receivingBody(_, decoding: true) = exchange.response, let decoder {
            do {
                try decoder.finish()
            } catch {
                return finish(exchange, failure: .undecodableBody(error))
            }
        }
        return complete(exchange, responseAllowsReuse: allowsReuse, bytesFollowResponse: bytesFollow)
    }

    // MARK: - Decoding

    /// Replaces `codings` with those of every `Content-Encoding` field, in the order they were
    /// applied (RFC 9110 §8.4; several field lines form one list, empty elements are skipped).
    /// Reads the field bytes in place: only an unsupported coding's name allocates.
    static func collectContentCodings(in fields: HTTPFieldList, into codings: inout [ContentCoding]) {
        if !codings.isEmpty { codings.removeAll(keepingCapacity: true) }
        // "Content-Encoding": 16 bytes from C to g.
        guard fields.nameSummary.mayContain(count: 16, first: UInt8(ascii: "C"), last: UInt8(ascii: "g")) else {
            return
        }
        for position in fields.indices {
            let field = fields.storage.field(at: fields.fieldRange.lowerBound + position)
            guard fields.storage.equalsLowercase(field.nameStart..<field.nameEnd, "content-encoding") else { continue }
            fields.withBytes(at: position) { _, value in
                var start = 0
                for index in 0...value.count where index == value.count || value[index] == UInt8(ascii: ",") {
                    var lower = start
                    var upper = index
                    while lower < upper && (value[lower] == 0x20 || value[lower] == 0x09) { lower += 1 }
                    while upper > lower && (value[upper - 1] == 0x20 || value[upper - 1] == 0x09) { upper -= 1 }
                    if lower < upper {
                        // SAFETY: 0 <= lower < upper <= index <= value.count, so the slice is inside
                        // `value`, valid in this closure; `coding(named:)` compares it in place or
                        // copies it into a String, keeping no pointer.
                        codings.append(coding(named: UnsafeRawBufferPointer(rebasing: value[lower..<upper])))
                    }
                    start = index + 1
                }
            }
        }
    }

    /// The coding a token names, as `ContentCoding(token:)` decides, without making a `String` for
    /// the codings Wick knows.
    private static func coding(named token: UnsafeRawBufferPointer) -> ContentCoding {
        func matches(_ name: StaticString) -> Bool {
            guard token.count == name.utf8CodeUnitCount else { return false }
            // SAFETY: `name` is a literal with a static UTF-8 buffer; zip stops at the shorter side,
            // and the counts were checked equal above.
            return name.withUTF8Buffer { expected in zip(token, expected).allSatisfy { ($0 | 0x20) == $1 } }
        }
        if matches("gzip") || matches("x-gzip") { return .gzip }
        if matches("deflate") { return .deflate }
        if matches("br") { return .brotli }
        if matches("zstd") { return .zstd }
        if matches("identity") { return .identity }
        return ContentCoding(token: String(decoding: token, as: UTF8.self))
    }

    /// Makes the decoder ready for `codings`, reusing it when its limits match.
    /// - Returns: whether the body will be decoded (false for a coding it cannot decode).
    /// - Throws: `ContentDecodingError.tooManyCodings` or `.outOfMemory`.
    private mutating func prepareDecoder(
        codings: [ContentCoding],
        limits: ContentDecoderLimits
    ) throws(ContentDecodingError) -> Bool {
        if let decoder, decoder.limits == limits {
            try decoder.reset(codings: codings)
            return decoder.decodesBody
        }
        let fresh = try ContentDecoder(codings: codings, limits: limits)
        decoder = fresh
        return fresh.decodesBody
    }

    /// Decodes wire bytes into `decodedBuffer` (emptied first).
    private mutating func decode(_ wire: UnsafeRawBufferPointer) throws(ContentDecodingError) {
        guard let decoder else { preconditionFailure("decode: a decoded response without a decoder") }
        decoderInput.removeAll(keepingCapacity: true)
        decoderInput.append(contentsOf: wire)
        decodedBuffer.removeAll(keepingCapacity: true)
        try decoder.decode(decoderInput[...], appendingTo: &decodedBuffer)
    }
}
