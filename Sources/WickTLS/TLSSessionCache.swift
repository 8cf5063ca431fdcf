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
    /// A stored session and the chain its server presented (a resumption presents none).
    struct Stored {
        let session: SessionHandle
        let chain: [Certificate]
    }

    private struct Storage: ~Copyable {
        var sessions: [String: Stored] = [:]
        /// Keys, oldest first, for eviction.
        var order: [String] = []
    }

    /// The most host:port entries kept.
    let capacity: Int
    /// Where the sessions are kept across restarts, if anywhere.
    private let file: TLSSessionFile?
    private let storage = Mutex(Storage())

    /// An empty cache, or one filled from `file` (which then receives every change).
    init(capacity: Int, file: TLSSessionFile? = nil) {
        precondition(capacity > 0, "a session cache holds at least one entry")
        self.capacity = capacity
        self.file = file
        for entry in file?.storedSessions() ?? [] {
            insert(Stored(session: entry.session, chain: entry.chain), for: entry.key)
        }
    }

    /// Stores `session` for `key` with the chain its server presented, replacing the previous one.
    func store(_ session: SessionHandle, chain: [Certificate], for key: String) {
        insert(Stored(session: session, chain: chain), for: key)
        scheduleWrite()
    }

    /// The session for `key`, if any.
    func session(for key: String) -> Stored? {
        storage.withLock { $0.sessions[key] }
    }

    /// Forgets the session for `key` (after the server refused it).
    func remove(_ key: String) {
        let removed = storage.withLock { storage in
            guard storage.sessions.removeValue(forKey: key) != nil else { return false }
            storage.order.removeAll { $0 == key }
            return true
        }
        if removed { scheduleWrite() }
    }

    /// The number of entries.
    var count: Int { storage.withLock { $0.sessions.count } }

    /// Writes the entries to the file now (when the context goes away).
    func flush() {
        file?.writeNow(snapshot())
    }

    private func insert(_ stored: Stored, for key: String) {
        storage.withLock { storage in
            if storage.sessions.updateValue(stored, forKey: key) == nil {
                storage.order.append(key)
                if storage.order.count > capacity {
                    storage.sessions[storage.order.removeFirst()] = nil
                }
            }
        }
    }

    private func scheduleWrite() {
        guard let file else { return }
        file.scheduleWrite { [weak self] in self?.snapshot() }
    }

    /// The entries, oldest first.
    private func snapshot() -> [TLSSessionFile.Entry] {
        storage.withLock { storage in
            storage.order.compactMap { key in
                storage.sessions[key].map { TLSSessionFile.Entry(key: key, session: $0.session, chain: $0.chain) }
            }
        }
    }
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
