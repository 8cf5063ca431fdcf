// A joinable OS thread running one closure: the event loops', the resolver's and (in WickTLS)
// the trust-evaluation pool's threads.
//
// This file holds the only pthread calls in WickReactor; each unsafe expression has a SAFETY line.
import CWickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A started, named OS thread that must be joined exactly once by its owner. For the few
/// long-lived threads Wick runs outside Swift concurrency: event loops, resolvers, evaluators.
public struct JoinableThread: @unchecked Sendable {
    // @unchecked Sendable: a pthread_t is an opaque identifier; only its owner joins it, once.
    private let handle: pthread_t

    /// Starts a thread named `name` (at most 15 bytes are kept) that runs `body`.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        // SAFETY: this +1 retain travels to the new thread as its context pointer, which balances it
        // with exactly one takeRetainedValue; if pthread_create fails, the precondition below stops the
        // process before anything could release it twice.
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var handle = pthread_t()
        // SAFETY: the box is retained until the thread takes it back (takeRetainedValue) exactly
        // once; pthread_create copies the opaque pointer.
        let result = pthread_create(
            &handle, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                // SAFETY: the kernel copies at most 16 bytes of the NUL-terminated name.
                cwick_set_thread_name(box.name)
                box.body()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed: errno \(result)")
        self.handle = handle
    }

    /// Waits for the thread to finish. Call once, never from the thread itself.
    public func join() {
        precondition(pthread_equal(handle, pthread_self()) == 0, "a thread cannot join itself")
        // SAFETY: handle came from pthread_create and is joined once (its owner drops it after joining).
        let result = pthread_join(handle, nil)
        precondition(result == 0, "pthread_join failed: errno \(result)")
    }

    /// The calling thread's identifier, comparable with `==`.
    static var currentID: UInt {
        UInt(pthread_self())
    }
}

/// The number of online processors, at least 1.
enum ProcessorCount {
    static var online: Int {
        Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
