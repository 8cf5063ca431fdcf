// A stream handler as a reader: chunks parsed and handled in order on the handler's queue, bounded.
import Dispatch
import FoundationEssentials
import WickReactor

/// Runs a handler's parser and handler on a serial queue (targeting the queue the caller
/// chose, so even a concurrent queue sees the events in order), counting the bytes dispatched
/// and not yet handled against the handler's `BufferingPolicy`. The parser is only used on
/// that queue; its lock is never contended, and the handler runs outside it. (`Locked`, a
/// pthread mutex, rather than `Synchronization.Mutex`, which ThreadSanitizer cannot see.)
final class HandlerStreamConsumer<Parser: DataStreamParser>: DataStreamConsumer {
    private let queue: DispatchQueue
    private let gauge: Locked<StreamFlowGauge>
    private let parser: Locked<Parser>
    private weak let request: DataStreamRequest?
    /// Hands one element to the handler (checks for cancellation, catches what it throws).
    private let handle: @Sendable (Parser.Element) -> Void

    init(
        queue: DispatchQueue, policy: DataStreamRequest.BufferingPolicy, parser: Parser, request: DataStreamRequest,
        handle: @escaping @Sendable (Parser.Element) -> Void
    ) {
        self.queue = queue
        self.gauge = Locked(StreamFlowGauge(policy: policy))
        self.parser = Locked(parser)
        self.request = request
        self.handle = handle
    }

    /// The most bytes ever dispatched to the handler and not yet handled.
    var peakBytes: Int { gauge.withLock { $0.peakBytes } }

    func take(_ chunk: Data) -> Bool {
        let becameFull = gauge.withLock { $0.added(chunk.count) }
        queue.async { [self] in
            if request?.isStreamStopped == false {
                for element in parser.withLock({ $0.parse(chunk) }) { handle(element) }
            }
            let drained = gauge.withLock { $0.removed(chunk.count) }
            if drained { request?.consumerDrained() }
        }
        return becameFull
    }

    func restart() {
        queue.async { [self] in parser.withLock { $0.reset() } }
    }

    func end(success: Bool, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            if success, request?.isStreamStopped == false {
                for element in parser.withLock({ $0.finish() }) { handle(element) }
            }
            done()
        }
    }
}
