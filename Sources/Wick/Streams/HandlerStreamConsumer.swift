// A stream handler as a reader: chunks parsed and handled in order on the handler's queue, bounded.
import Dispatch
import FoundationEssentials
import Synchronization

/// Runs a handler's parser and handler on a serial queue (targeting the queue the caller
/// chose, so even a concurrent queue sees the events in order), counting the bytes dispatched
/// and not yet handled against the handler's `BufferingPolicy`.
///
/// `@unchecked Sendable`: `parser` is only touched in blocks on `queue`, which is serial; the
/// other stored properties are immutable and Sendable, or behind `gauge`'s lock.
final class HandlerStreamConsumer<Parser: DataStreamParser>: DataStreamConsumer, @unchecked Sendable {
    private let queue: DispatchQueue
    private let gauge: Mutex<StreamFlowGauge>
    private var parser: Parser
    private weak var request: DataStreamRequest?
    /// Hands one element to the handler (checks for cancellation, catches what it throws).
    private let handle: @Sendable (Parser.Element) -> Void

    init(
        queue: DispatchQueue, policy: DataStreamRequest.BufferingPolicy, parser: Parser, request: DataStreamRequest,
        handle: @escaping @Sendable (Parser.Element) -> Void
    ) {
        self.queue = queue
        self.gauge = Mutex(StreamFlowGauge(policy: policy))
        self.parser = parser
        self.request = request
        self.handle = handle
    }

    /// The most bytes ever dispatched to the handler and not yet handled.
    var peakBytes: Int { gauge.withLock { $0.peakBytes } }

    func take(_ chunk: Data) -> Bool {
        let becameFull = gauge.withLock { $0.added(chunk.count) }
        queue.async { [self] in
            if request?.isCancelled == false {
                for element in parser.parse(chunk) { handle(element) }
            }
            let drained = gauge.withLock { $0.removed(chunk.count) }
            if drained { request?.consumerDrained() }
        }
        return becameFull
    }

    func restart() {
        queue.async { [self] in parser.reset() }
    }

    func end(success: Bool, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            if success, request?.isCancelled == false {
                for element in parser.finish() { handle(element) }
            }
            done()
        }
    }
}
