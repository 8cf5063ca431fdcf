// A pthread mutex with a condition variable: where WickTLS's worker threads and callers meet.
//
// Why pthreads and not `Synchronization.Mutex`: ThreadSanitizer on Linux sees pthread
// synchronisation but not the runtime's futexes (see WickReactor's `Locked`), and the worker
// pool needs a condition variable, which `Mutex` lacks.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value read and written only while holding the mutex, with a condition to wait on.
///
/// `@unchecked Sendable` proof: `value` is private and touched only inside `withLock` and
/// `wait(until:)`, between `pthread_mutex_lock` and `pthread_mutex_unlock`; the mutex and
/// condition are allocated once in `init`, never reassigned, and destroyed in `deinit` when no
/// thread can hold a reference.
final class ConditionLock<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        // SAFETY: pthread objects must not move once initialised, so each lives in its own
        // allocation, initialised here and destroyed and freed in deinit.
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        // SAFETY: no other reference exists, so no thread holds the mutex or waits.
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value (not re-entrant).
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        // SAFETY: the mutex is initialised for the object's lifetime; lock and unlock pair up.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Waits until `ready` holds, then runs `body` under the lock.
    func wait<Result>(until ready: (Value) -> Bool, _ body: (inout Value) -> Result) -> Result {
        // SAFETY: as in withLock; pthread_cond_wait releases and retakes the held mutex.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return body(&value)
    }

    /// Wakes every waiter (call after changing the value).
    func broadcast() {
        // SAFETY: the condition is initialised for the object's lifetime.
        pthread_cond_broadcast(condition)
    }
}
