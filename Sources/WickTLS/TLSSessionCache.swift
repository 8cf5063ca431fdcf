// Resumable TLS sessions, per host and port, shared by the connections of one TLSContext.
internal import CWickOpenSSL
import Synchronization

/// The client-side session cache: the newest resumable session (a TLS 1.3 ticket or a TLS 1.2
/// session) for each `host:port`, so that a reconnection resumes instead of repeating the full
/// handshake. Thread-safe: connections on any loop store and look up under one mutex. Bounded:
/// at `capacity` entries, storing a new key forgets the oldest.
///
/// Only sessions whose server passed trust evaluation are stored (the engine holds others back
/// until evaluation succeeds), so a resumption never skips a check that failed.
final class TLSSessionCache: Sendable {
    private struct Storage: ~Copyable {
        var sessions: [String: SessionHandle] = [:]
        /// Keys, oldest first, for eviction.
        var order: [String] = []
    }

    /// The most host:port entries kept.
    let capacity: Int
    private let storage = Mutex(Storage())

    init(capacity: Int) {
        precondition(capacity > 0, "a session cache holds at least one entry")
        self.capacity = capacity
    }

    /// Stores `session` for `key`, replacing the previous one.
    func store(_ session: SessionHandle, for key: String) {
        storage.withLock { storage in
            if storage.sessions.updateValue(session, forKey: key) == nil {
                storage.order.append(key)
                if storage.order.count > capacity {
                    storage.sessions[storage.order.removeFirst()] = nil
                }
            }
        }
    }

    /// The session for `key`, if any.
    func session(for key: String) -> SessionHandle? {
        storage.withLock { $0.sessions[key] }
    }

    /// Forgets the session for `key` (after the server refused it).
    func remove(_ key: String) {
        storage.withLock { storage in
            if storage.sessions.removeValue(forKey: key) != nil {
                storage.order.removeAll { $0 == key }
            }
        }
    }

    /// The number of entries.
    var count: Int { storage.withLock { $0.sessions.count } }
}

/// One reference to an `SSL_SESSION`, released when the handle dies.
final class SessionHandle: @unchecked Sendable {
    // @unchecked Sendable: an SSL_SESSION handed to the new-session callback is immutable from
    // then on and reference-counted atomically; OpenSSL supports setting one session on SSL
    // objects of several threads (SSL_set_session takes its own reference).
    let pointer: OpaquePointer

    /// Takes over one reference the caller owns.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        SSL_SESSION_free(pointer)
    }
}
