// A value guarded by a pthread mutex: the reactor's only lock, used where threads meet.
//
// Why not `Synchronization.Mutex`: on Linux it is built on futexes inside the (uninstrumented)
// runtime, so ThreadSanitizer cannot see its happens-before edges and reports every value it
// guards as racy. TSan intercepts `pthread_mutex_lock`, so this lock keeps `Scripts/tsan` exact.
//
// Why a `ManagedBuffer` inside: the value is its header and the mutex its one tail element, and
// `withLock` reaches the value through a pointer, so it pays no dynamic exclusivity check (a
// class's `var` passed `inout` costs `swift_beginAccess` and `swift_endAccess`, about 60
// instructions, on every call; a request takes locks about a dozen times). `Locked` itself stays
// a class: callers share it by reference, and a struct holding the storage (one allocation
// fewer) crashed the reactor tests, because some caller's lock outlived its owner only while the
// call retained it (not found yet: kept as a class until it is).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value that is read and written only while holding its mutex.
///
/// `@unchecked Sendable` proof: `value` points at the storage's header and is dereferenced only
/// inside `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`; both
/// pointers are into `storage`, which this object keeps alive, and are never reassigned.
/// `Value: Sendable` because values cross threads through the lock.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let storage: Storage
    private let value: UnsafeMutablePointer<Value>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock guarding `value`.
    package init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        // SAFETY: `create` on `Storage` makes a `Storage` (ManagedBuffer's documented pattern).
        storage = unsafeDowncast(buffer, to: Storage.self)
        // SAFETY: a class instance never moves, so pointers to its header and tail element stay
        // valid while `storage` lives, and this object holds it. The mutex is initialised here,
        // once, and destroyed in the storage's deinit.
        (self.value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: errno \(result)")
    }

    /// Runs `body` with exclusive access to the value. `body` must not call `withLock` on the
    /// same lock (the mutex is not recursive).
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        // SAFETY: both pointers are into `storage`, which `self` keeps alive; lock and
        // unlock pair up on every path through the defer, and the value is touched only between.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Runs `body` with exclusive access if no thread holds the lock now, and returns its
    /// result; returns nil at once, without waiting and without running `body`, if one does.
    package func withLockIfAvailable<Result>(_ body: (inout Value) -> Result) -> Result? {
        // SAFETY: as in `withLock`; the value is touched only when the try-lock succeeded, and
        // that path unlocks through the defer.
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return body(&value.pointee)
    }

    /// The value (header) and the mutex (one tail element) in one allocation.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            // SAFETY: no other reference exists, so no thread holds or waits for the mutex; the
            // header (the value) is destroyed by ManagedBuffer itself.
            _ = withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }
}
