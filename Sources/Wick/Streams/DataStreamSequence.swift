// A data stream read with async/await: an AsyncSequence whose reading paces the socket.
import FoundationEssentials
import Synchronization

/// The body of a `DataStreamRequest` as an async sequence (`streamingData()`,
/// `streamingStrings()`, `streamingDecodables(_:)`): its elements as the body arrives, then
/// `nil` once the body was read to its end, or the request's `WickError` thrown when it ended
/// early (failed, cancelled, a validation refused the response).
///
/// Backpressure: the sequence holds at most its `BufferingPolicy`'s high mark of bytes not yet
/// read (plus one socket read); past it the connection stops reading until iteration brings
/// it down to the low mark. Parsing (text, JSON) happens in the iterating task.
///
/// One iterator per sequence, used by one task at a time. Cancelling the iterating task, or
/// dropping the iterator (or the sequence, before making one) before the end, cancels the
/// request: its connection is closed, never reused with unread bytes, and `next()` throws
/// `WickError.explicitlyCancelled`.
public struct DataStreamSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// The request's error.
    public typealias Failure = WickError

    private let reader: DataStreamReader
    private let lifetime: SequenceLifetime
    private let makeParser: @Sendable () -> any DataStreamParser<Element>
    /// The failure that ends the stream, for an element that carries one
    /// (`automaticallyCancelOnStreamError`); nil: no element ends it.
    private let failure: (@Sendable (Element) -> WickError?)?

    init(
        reader: DataStreamReader, makeParser: @escaping @Sendable () -> any DataStreamParser<Element>,
        failure: (@Sendable (Element) -> WickError?)?
    ) {
        self.reader = reader
        self.lifetime = SequenceLifetime(reader: reader)
        self.makeParser = makeParser
        self.failure = failure
    }

    /// The most bytes the sequence ever held unread.
    var peakBufferedBytes: Int { reader.buffer.peakBytes }

    /// The iterator. Traps if one was made already: the body can be read once.
    public func makeAsyncIterator() -> Iterator {
        let first = reader.iteratorMade.exchange(true, ordering: .acquiringAndReleasing) == false
        precondition(first, "DataStreamSequence: one iterator per sequence")
        return Iterator(reader: reader, parser: makeParser(), failure: failure)
    }

    /// Reads the stream's elements in order.
    public struct Iterator: AsyncIteratorProtocol {
        /// The request's error.
        public typealias Failure = WickError

        private let reader: DataStreamReader
        private let lifetime: IteratorLifetime
        private var parser: any DataStreamParser<Element>
        private let failure: (@Sendable (Element) -> WickError?)?
        /// The failure an element ended the stream with, thrown by the next call.
        private var stopError: WickError?
        /// Elements parsed from the last chunk and not returned yet (the list's storage is
        /// reused for the next chunk).
        private var pending: [Element] = []
        private var pendingIndex = 0
        /// The end was returned or thrown; `next()` returns nil from now on.
        private var isDone = false

        init(
            reader: DataStreamReader, parser: any DataStreamParser<Element>,
            failure: (@Sendable (Element) -> WickError?)?
        ) {
            self.reader = reader
            self.lifetime = IteratorLifetime(reader: reader)
            self.parser = parser
            self.failure = failure
        }

        /// The next element, waiting for the body; nil at the end.
        /// - Throws: the request's `WickError` when it ended early, once (then nil);
        ///   `explicitlyCancelled` when the iterating task was cancelled (the request is).
        public mutating func next() async throws(WickError) -> Element? {
            try await next(isolation: nil)
        }

        /// The next element, waiting for the body in `actor`'s isolation (no executor hop when
        /// a chunk is already held); nil at the end.
        /// - Throws: as `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(WickError) -> Element? {
            while true {
                if let error = stopError {
                    stopError = nil
                    return try end(error)
                }
                // After a cancel (the request's, or a reader ending the stream), what is held
                // is dropped until the end arrives.
                if pendingIndex < pending.count, reader.request.isStreamStopped {
                    pending = []
                    pendingIndex = 0
                }
                if pendingIndex < pending.count {
                    let element = pending[pendingIndex]
                    pendingIndex += 1
                    if let error = failure?(element) {
                        stopError = error
                        reader.request.failStream(error)
                    }
                    return element
                }
                if isDone { return nil }
                if Task.isCancelled {
                    reader.buffer.cancel()
                    return try end(.explicitlyCancelled)
                }
                switch await reader.buffer.next(isolation: actor) {
                case .chunk(let chunk):
                    guard !reader.request.isStreamStopped else { continue }
                    pending.removeAll(keepingCapacity: true)
                    parser.parse(chunk, into: &pending)
                    pendingIndex = 0
                case .restart:
                    parser.reset()
                    pending = []
                case .end(nil):
                    pending.removeAll(keepingCapacity: true)
                    parser.finish(into: &pending)
                    pendingIndex = 0
                    isDone = true
                    reader.isEnded.store(true, ordering: .releasing)
                case .end(let error?):
                    return try end(error)
                }
            }
        }

        private mutating func end(_ error: WickError) throws(WickError) -> Element? {
            isDone = true
            pending = []
            reader.isEnded.store(true, ordering: .releasing)
            throw error
        }
    }
}

/// What a sequence and its iterator share: the buffer, the request, and what became of them.
final class DataStreamReader: Sendable {
    let buffer: DataStreamBuffer
    let request: DataStreamRequest
    let iteratorMade = Atomic(false)
    /// The iterator returned the end or threw: leaving now cancels nothing.
    let isEnded = Atomic(false)

    init(buffer: DataStreamBuffer, request: DataStreamRequest) {
        self.buffer = buffer
        self.request = request
    }

    /// The reader went away: before the end, that cancels the request.
    func abandon() {
        guard !isEnded.load(ordering: .acquiring) else { return }
        buffer.detach()
        request.cancel()
    }
}

/// Dropped with the last copy of a sequence: abandons the reader if no iterator was made.
private final class SequenceLifetime: Sendable {
    let reader: DataStreamReader

    init(reader: DataStreamReader) {
        self.reader = reader
    }

    deinit {
        if !reader.iteratorMade.load(ordering: .acquiring) { reader.abandon() }
    }
}

/// Dropped with the iterator: abandons the reader unless the iterator reached the end.
private final class IteratorLifetime: Sendable {
    let reader: DataStreamReader

    init(reader: DataStreamReader) {
        self.reader = reader
    }

    deinit {
        reader.abandon()
    }
}
