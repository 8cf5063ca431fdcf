// Reading a stream with handlers: raw chunks, UTF-8 text, or newline-delimited JSON values.
public import Dispatch
public import FoundationEssentials

extension DataStreamRequest {
    /// The longest line `responseStreamDecodable` and `streamingDecodables` hold by default:
    /// 1 MiB.
    public static let defaultMaximumLineBytes = 1 << 20

    /// Calls `stream` with every chunk of the body as it arrives, then once with `.complete`;
    /// starts the request (unless `Session.startRequestsImmediately` is off).
    ///
    /// Chunks come in order, each one socket read (its size is the transport's, not the
    /// server's chunking). Add every handler before the body starts arriving (in the same
    /// expression as the first one, which starts the request): a handler added later misses
    /// the chunks before it.
    /// - Parameters:
    ///   - queue: where `stream` runs, in order even on a concurrent queue; nil:
    ///     `session.responseQueue`.
    ///   - bufferingPolicy: how many bytes may wait for `stream` before the socket stops being
    ///     read.
    ///   - stream: the handler. Throwing ends the stream (see `Handler`); `token.cancel()`
    ///     cancels it. After either, no more `.stream` events come.
    @discardableResult
    public func responseStream(
        on queue: DispatchQueue? = nil, bufferingPolicy: BufferingPolicy = .default,
        stream: @escaping Handler<Data, Never>
    ) -> Self {
        addHandler(parser: PassthroughStreamParser(), queue: queue, bufferingPolicy: bufferingPolicy, stream: stream) {
            .success($0)
        }
    }

    /// Calls `stream` with each chunk of the body serialized by `serializer` as it arrives, then
    /// once with `.complete`; starts the request (Alamofire's `responseStream(using:on:stream:)`).
    /// A chunk the serializer refuses is a `.stream(.failure)` event (a `WickError` as thrown,
    /// any other error as `responseSerializationFailed(reason: .customSerializationFailed)`),
    /// and the next chunks go on unless `automaticallyCancelOnStreamError` is set, which then
    /// ends the request with that error. See `responseStream(on:bufferingPolicy:stream:)` for
    /// the other parameters and for what a chunk is.
    @discardableResult
    public func responseStream<Serializer: DataStreamSerializer>(
        using serializer: Serializer, on queue: DispatchQueue? = nil, bufferingPolicy: BufferingPolicy = .default,
        stream: @escaping Handler<Serializer.SerializedObject, WickError>
    ) -> Self {
        addHandler(
            parser: SerializingStreamParser(serializer: serializer), queue: queue, bufferingPolicy: bufferingPolicy,
            stream: stream
        ) { $0 }
    }

    /// Calls `stream` with the body as UTF-8 text as it arrives, then once with `.complete`;
    /// starts the request. A character split between two socket reads is delivered whole, in
    /// the later string; invalid bytes become U+FFFD. See `responseStream` for the parameters.
    @discardableResult
    public func responseStreamString(
        on queue: DispatchQueue? = nil, bufferingPolicy: BufferingPolicy = .default,
        stream: @escaping Handler<String, Never>
    ) -> Self {
        addHandler(parser: UTF8StreamParser(), queue: queue, bufferingPolicy: bufferingPolicy, stream: stream) {
            .success($0)
        }
    }

    /// Calls `stream` with each value of a newline-delimited JSON body (NDJSON, JSON Lines: one
    /// value per line), then once with `.complete`; starts the request.
    ///
    /// Lines split across socket reads are reassembled; empty lines are skipped; a CR before
    /// the LF is ignored, and the last line needs no LF. A line that does not decode is a
    /// `.stream(.failure)` event with `responseSerializationFailed(reason:
    /// .lineDecodingFailed(line:error:))`, and the next lines go on, unless
    /// `automaticallyCancelOnStreamError` is set, which then ends the request with that error.
    /// A line longer than `maximumLineBytes` is never held: it is a `.lineTooLong` failure
    /// event and its bytes are skipped.
    /// - Parameters:
    ///   - type: the type of each line's value.
    ///   - decoder: decodes each line (after `preprocessor`); `JSONDecoder()` by default.
    ///   - preprocessor: changes each line before it is decoded.
    ///   - maximumLineBytes: the longest line held (its CR and LF not counted); at least 1.
    ///   - queue: as for `responseStream(on:bufferingPolicy:stream:)`.
    ///   - bufferingPolicy: as for `responseStream(on:bufferingPolicy:stream:)`.
    ///   - stream: receives each line's value or failure, then `.complete`.
    @discardableResult
    public func responseStreamDecodable<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self, on queue: DispatchQueue? = nil,
        using decoder: any DataDecoder = JSONDecoder(),
        preprocessor: any DataPreprocessor = PassthroughPreprocessor(),
        maximumLineBytes: Int = DataStreamRequest.defaultMaximumLineBytes, bufferingPolicy: BufferingPolicy = .default,
        stream: @escaping Handler<Value, WickError>
    ) -> Self {
        let parser = NDJSONStreamParser<Value>(
            decoder: decoder, preprocessor: preprocessor, maximumLineBytes: maximumLineBytes)
        return addHandler(parser: parser, queue: queue, bufferingPolicy: bufferingPolicy, stream: stream) { $0 }
    }

    /// Registers a handler reader and its `.complete` event, and starts the request.
    private func addHandler<Parser: DataStreamParser, Success: Sendable, Failure: Error>(
        parser: Parser, queue: DispatchQueue?, bufferingPolicy: BufferingPolicy,
        stream: @escaping Handler<Success, Failure>,
        result: @escaping @Sendable (Parser.Element) -> Result<Success, Failure>
    ) -> Self {
        // Serial, so events keep their order whatever `queue` is; it runs on `queue`.
        let serial = DispatchQueue(label: "wick.stream.handler", target: queue ?? session.responseQueue)
        let token = CancellationToken(self)
        let monitored = session.eventMonitor.handledEvents.contains(.didParseStream)
        let consumer = HandlerStreamConsumer(queue: serial, policy: bufferingPolicy, parser: parser, request: self) {
            [self] element in
            guard !isStreamStopped else { return }
            let result = result(element)
            if monitored { session.eventMonitor.request(self, didParseStream: result.mapError(Self.streamError)) }
            do {
                try stream(Stream(event: .stream(result), token: token))
            } catch {
                return failStream(Self.streamError(error))
            }
            if case .failure(let failure) = result, automaticallyCancelOnStreamError {
                failStream(Self.streamError(failure))
            }
        }
        _ = register(consumer)
        whenFinished { [self] outcome in
            let completion = completion(outcome)
            // Errors thrown at the end have nothing left to end.
            serial.async { try? stream(Stream(event: .complete(completion), token: token)) }
        }
        return self
    }
}
