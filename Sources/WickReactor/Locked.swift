// A value guarded by a pthread mutex: the reactor's only lock, used where threads meet.
//
// Why not `Synchronization.Mutex`: on Linux it is built on futexes inside the (uninstrumented)
// runtime, so ThreadSanitizer cannot see its happens-before edges and reports every value it
// guards as racy. TSan intercepts `pthread_mutex_lock`, so this lock keeps `Scripts/tsan` exact.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value that is read and written only while holding its mutex.
///
/// `@unchecked Sendable` proof: `value` is private and touched only inside `withLock`, between
/// `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`; `mutex` is allocated once in
/// `init`, never reassigned, and destroyed in `deinit` when no thread can hold a reference.
/// `Value: Sendable` because values cross threads through the lock.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
        // SAFETY: a pthread mutex must not move once initialised, so it lives in its own
        // allocation, initialised here and destroyed and freed in deinit.
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: errno \(result)")
    }

    deinit {
        // SAFETY: no other reference exists, so no thread holds or waits for the mutex.
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. `body` must not call `withLock` on the
    /// same lock (the mutex is not recursive).
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        // SAFETY: mutex is initialised for the object's lifetime; lock and unlock pair up on
        // every path through the defer.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
