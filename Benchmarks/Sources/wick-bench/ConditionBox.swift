// Hands one value from a loop's thread to a waiting thread.
import Dispatch
import Synchronization

/// A one-shot mailbox: `put` from any thread, `take` blocks until the value is there.
final class ConditionBox<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func put(_ newValue: Value) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    func take() -> Value {
        ready.wait()
        return value.withLock { value in
            guard let taken = value.take() else { preconditionFailure("ConditionBox: signalled without a value") }
            return taken
        }
    }
}
