// Helpers for the stream tests: a handler's events recorded until (and after) its completion.
import Dispatch
import Foundation
import Testing
import WickTestSupport

@testable import Wick

/// Records a stream handler's events; `completed` returns them once `.complete` arrived.
final class StreamRecorder<Success: Sendable, Failure: Error>: Sendable {
    typealias Event = DataStreamRequest.Event<Success, Failure>

    private let events = Shared<[Event]>([])
    private let waiter = Shared<CheckedContinuation<Void, Never>?>(nil)
    private let isComplete = Shared(false)
    /// Runs for each `.stream` event, before it is recorded; may cancel or throw.
    private let onStream: @Sendable (DataStreamRequest.Stream<Success, Failure>) throws -> Void

    init(onStream: @escaping @Sendable (DataStreamRequest.Stream<Success, Failure>) throws -> Void = { _ in }) {
        self.onStream = onStream
    }

    /// The handler to pass to `responseStream...`.
    var handler: DataStreamRequest.Handler<Success, Failure> {
        { [self] stream in
            events.withLock { $0.append(stream.event) }
            if case .complete = stream.event {
                isComplete.withLock { $0 = true }
                waiter.withLock { waiter in
                    waiter?.resume()
                    waiter = nil
                }
                return
            }
            try onStream(stream)
        }
    }

    /// Waits for `.complete` (bounded by the request's own timeouts), then returns every event.
    func completed() async -> [Event] {
        await withCheckedContinuation { continuation in
            let now = isComplete.withLock { $0 }
            if now {
                continuation.resume()
            } else {
                waiter.withLock { $0 = continuation }
                if isComplete.withLock({ $0 }) {
                    waiter.withLock { waiter in
                        waiter?.resume()
                        waiter = nil
                    }
                }
            }
        }
        return events.withLock { $0 }
    }

    /// Every event so far.
    var all: [Event] { events.withLock { $0 } }
}

extension Array {
    /// The `.stream` values of a handler's events.
    func values<Success, Failure>() -> [Success] where Element == DataStreamRequest.Event<Success, Failure> {
        compactMap { event in
            guard case .stream(.success(let value)) = event else { return nil }
            return value
        }
    }

    /// The completion, if the last event is the only `.complete` one.
    func onlyCompletionLast<Success, Failure>() -> DataStreamRequest.Completion?
    where Element == DataStreamRequest.Event<Success, Failure> {
        let completions = indices.filter { index in
            if case .complete = self[index] { return true }
            return false
        }
        guard completions == [count - 1], case .complete(let completion) = self[count - 1] else { return nil }
        return completion
    }
}

/// The chunks joined.
func joined(_ chunks: [Data]) -> Data {
    chunks.reduce(into: Data()) { $0.append($1) }
}

/// `head` then `body` sent in pieces cut at `cuts`, with a pause between pieces so that each
/// arrives in its own read.
func piecewise(head: String, body: [UInt8], cuts: [Int], pause: Duration = .milliseconds(30)) -> [FaultStep] {
    var steps: [FaultStep] = [.readRequestHead, .send(Array(head.utf8))]
    var start = 0
    for end in cuts + [body.count] {
        steps.append(.pause(pause))
        steps.append(.send(Array(body[start..<end])))
        start = end
    }
    return steps
}
