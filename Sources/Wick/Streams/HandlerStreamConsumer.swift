// A stream handler as a reader: chunks parsed and handled in order on the handler's queue, bounded.
import Dispatch
import FoundationEssentials
import WickReactor

/// Runs a handler's parser and handler on a serial queue (targeting the queue the caller
/// chose, so even a concurrent queue sees the events in order), counting the bytes taken and
/// not yet handled against the handler's `BufferingPolicy`.
///
/// Events wait in a mailbox, in order; one drain at a time runs on the queue and takes them
/// until the mailbox is empty, so a batch of chunks costs one dispatch, and the order never
/// depends on when a wake-up is performed. The parser and the handler run outside the lock.
/// (`Locked`, a pthread mutex, rather than `Synchronization.Mutex`, which ThreadSanitizer
/// cannot see.)
final class HandlerStreamConsumer<Parser: DataStreamParser>: DataStreamConsumer {
    private enum Event {
        case chunk(Data)
        case restart
        case end(success: Bool, done: @Sendable () -> Void)
    }

    private struct Mailbox {
        var gauge: StreamFlowGauge
        var events: [Event] = []
        /// A drain is dispatched or running: a new event needs no wake-up.
        var isDraining = false

        /// Queues `event`; true when a drain must be dispatched for it.
        mutating func post(_ event: Event) -> Bool {
            events.append(event)
            return needsDrain()
        }

        /// Whether events wait and no drain is under way; a drain is then taken to be.
        mutating func needsDrain() -> Bool {
            guard !isDraining, !events.isEmpty else { return false }
            isDraining = true
            return true
        }
    }

    private let queue: DispatchQueue
    private let mailbox: Locked<Mailbox>
    /// Only used by the drain, which runs on `queue`, one at a time: never contended.
    private let parser: Locked<Parser>
    private weak let request: DataStreamRequest?
    /// Hands one element to the handler (checks for cancellation, catches what it throws).
    private let handle: @Sendable (Parser.Element) -> Void

    init(
        queue: DispatchQueue, policy: DataStreamRequest.BufferingPolicy, parser: Parser, request: DataStreamRequest,
        handle: @escaping @Sendable (Parser.Element) -> Void
    ) {
        self.queue = queue
        self.mailbox = Locked(Mailbox(gauge: StreamFlowGauge(policy: policy)))
        self.parser = Locked(parser)
        self.request = request
        self.handle = handle
    }

    /// The most bytes ever taken and not yet handled.
    var peakBytes: Int { mailbox.withLock { $0.gauge.peakBytes } }

    var room: Int { mailbox.withLock { $0.gauge.room } }

    func take(_ chunk: Data) -> Bool {
        mailbox.withLock { mailbox in
            mailbox.events.append(.chunk(chunk))
            return mailbox.gauge.added(chunk.count)
        }
    }

    func pendingWakeUp() -> DataStreamWakeUp? {
        mailbox.withLock { $0.needsDrain() } ? drainWakeUp : nil
    }

    func restart() -> DataStreamWakeUp? {
        mailbox.withLock { $0.post(.restart) } ? drainWakeUp : nil
    }

    func end(success: Bool, done: @escaping @Sendable () -> Void) {
        if mailbox.withLock({ $0.post(.end(success: success, done: done)) }) { drainWakeUp.perform() }
    }

    private var drainWakeUp: DataStreamWakeUp {
        .queue(queue) { [self] in drain() }
    }

    /// Handles the mailbox's events in order, a batch at a time, until it is empty (on `queue`).
    private func drain() {
        while true {
            let batch = mailbox.withLock { mailbox -> [Event] in
                if mailbox.events.isEmpty { mailbox.isDraining = false }
                defer { mailbox.events.removeAll(keepingCapacity: false) }
                return mailbox.events
            }
            guard !batch.isEmpty else { return }
            for event in batch { handle(event) }
        }
    }

    private func handle(_ event: Event) {
        switch event {
        case .chunk(let chunk):
            if request?.isStreamStopped == false {
                var elements: [Parser.Element] = []
                parser.withLock { $0.parse(chunk, into: &elements) }
                for element in elements { handle(element) }
            }
            let drained = mailbox.withLock { $0.gauge.removed(chunk.count) }
            if drained { request?.consumerDrained() }
        case .restart:
            parser.withLock { $0.reset() }
        case .end(let success, let done):
            if success, request?.isStreamStopped == false {
                var elements: [Parser.Element] = []
                parser.withLock { $0.finish(into: &elements) }
                for element in elements { handle(element) }
            }
            done()
        }
    }
}
