// Reading a stream with async/await: sequences of chunks, text, or decoded lines, bounded.
public import FoundationEssentials

extension DataStreamRequest {
    /// The body's chunks as an async sequence that ends with the stream, or throws its error;
    /// starts the request. See `DataStreamSequence` for backpressure and cancellation.
    ///
    /// Make the sequence before the body starts arriving (a sequence made later misses the
    /// chunks before it).
    /// - Parameter bufferingPolicy: how many unread bytes the sequence holds before the socket
    ///   stops being read.
    public func streamingData(bufferingPolicy: BufferingPolicy = .default) -> DataStreamSequence<Data> {
        makeSequence(bufferingPolicy: bufferingPolicy, failure: nil) { PassthroughStreamParser() }
    }

    /// The body as UTF-8 text, an async sequence of strings (a character split between two
    /// socket reads comes whole, in the later string); starts the request. See `streamingData`.
    public func streamingStrings(bufferingPolicy: BufferingPolicy = .default) -> DataStreamSequence<String> {
        makeSequence(bufferingPolicy: bufferingPolicy, failure: nil) { UTF8StreamParser() }
    }

    /// The values of a newline-delimited JSON body, as an async sequence of results, decoded in
    /// the iterating task; starts the request.
    ///
    /// A line that does not decode is a `.failure` element (`lineDecodingFailed`, or
    /// `lineTooLong` past `maximumLineBytes`) and iteration goes on, unless
    /// `automaticallyCancelOnStreamError` is set: then that element ends the stream (the
    /// request is cancelled if still running), and the next call to `next()` throws the
    /// failure. The request's own
    /// error ends the sequence by being thrown. See `responseStreamDecodable` for the framing
    /// and `streamingData` for the rest.
    public func streamingDecodables<Value: Decodable & Sendable>(
        _ type: Value.Type = Value.self, using decoder: any DataDecoder = JSONDecoder(),
        preprocessor: any DataPreprocessor = PassthroughPreprocessor(),
        maximumLineBytes: Int = DataStreamRequest.defaultMaximumLineBytes, bufferingPolicy: BufferingPolicy = .default
    ) -> DataStreamSequence<Result<Value, WickError>> {
        var failure: (@Sendable (Result<Value, WickError>) -> WickError?)?
        if automaticallyCancelOnStreamError {
            failure = { (element: Result<Value, WickError>) in
                guard case .failure(let error) = element else { return nil }
                return error
            }
        }
        return makeSequence(bufferingPolicy: bufferingPolicy, failure: failure) {
            NDJSONStreamParser<Value>(decoder: decoder, preprocessor: preprocessor, maximumLineBytes: maximumLineBytes)
        }
    }

    /// Registers a buffer reader, ends it with the outcome, and starts the request.
    private func makeSequence<Element: Sendable>(
        bufferingPolicy: BufferingPolicy, failure: (@Sendable (Element) -> WickError?)?,
        parser: @escaping @Sendable () -> any DataStreamParser<Element>
    ) -> DataStreamSequence<Element> {
        let buffer = DataStreamBuffer(policy: bufferingPolicy, request: self)
        _ = register(buffer)
        whenFinished { outcome in buffer.finished(outcome.error) }
        resumeIfAutomatic()
        return DataStreamSequence(
            reader: DataStreamReader(buffer: buffer, request: self), makeParser: parser, failure: failure)
    }
}
