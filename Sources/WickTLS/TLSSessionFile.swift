// TLS sessions kept in a file, so a restarted client resumes instead of paying full handshakes.
internal import CWickOpenSSL
import Dispatch
import Synchronization

import WickReactor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The file behind a session cache when `TLSConfiguration.sessionFile` is set: read once when
/// the context is made, written (atomically, mode 0600) at most once a second after sessions
/// change, and once more when the context goes away.
///
/// The format is text, one session per line after a header:
///
/// ```
/// wick-tls-sessions 1 <client identity: hex SHA-256 of its leaf, or ->
/// <host:port> <base64 DER SSL_SESSION> <base64 DER certificate>,<base64 DER certificate>...
/// ```
///
/// The certificates are the chain the server presented when the session was made: a resumed
/// handshake sends none, and the serialized session keeps only the leaf, so the evaluators see
/// this chain on a resumption (they run as on a full handshake; a session is only ever stored
/// after its server passed evaluation). A file made with another client identity is ignored
/// whole (resuming would present the old identity); a line that does not parse, a session that
/// has expired or cannot be resumed is dropped; an unreadable or corrupt file is an empty cache,
/// never an error. The file holds session secrets: it is created 0600 and should live where
/// only the daemon can read it.
final class TLSSessionFile: Sendable {
    /// One stored session, as the cache keeps it.
    struct Entry {
        let key: String
        let session: SessionHandle
        let chain: [Certificate]
    }

    static let header = "wick-tls-sessions 1"
    /// The longest file read (sessions are a few KiB each; the cache holds at most a few hundred).
    static let maximumFileBytes = 16 << 20
    /// How long changes wait before they are written, so a burst of new connections makes one
    /// write.
    static let writeDelay: DispatchTimeInterval = .seconds(1)

    let path: String
    /// Which client identity the sessions were made with (`-` for none).
    let identity: String
    private let queue = DispatchQueue(label: "wick.tls.session-file")
    private let writeScheduled = Mutex(false)

    init(path: String, clientIdentity: ClientIdentity?) {
        self.path = path
        identity = clientIdentity?.certificateChain.first.map { MessageDigest.hex(MessageDigest.sha256.hash($0.derBytes)) } ?? "-"
    }

    /// The sessions in the file still worth offering at `now` (seconds since 1970).
    func storedSessions(now: Int = Int(time(nil))) -> [Entry] {
        guard let text = Self.readText(path) else { return [] }
        return decode(text, now: now)
    }

    /// Writes `snapshot()` about a second from now, unless a write is already scheduled; a nil
    /// snapshot (the cache has gone, and flushed when it went) writes nothing.
    func scheduleWrite(_ snapshot: @escaping @Sendable () -> [Entry]?) {
        let alreadyScheduled = writeScheduled.withLock { scheduled in
            defer { scheduled = true }
            return scheduled
        }
        guard !alreadyScheduled else { return }
        queue.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in
            writeScheduled.withLock { $0 = false }
            if let entries = snapshot() { replaceFile(with: entries) }
        }
    }

    /// Writes `entries` now, after any write in progress.
    func writeNow(_ entries: [Entry]) {
        queue.sync { replaceFile(with: entries) }
    }

    // MARK: Encoding

    func encode(_ entries: [Entry]) -> String {
        var text = "\(Self.header) \(identity)\n"
        for entry in entries {
            guard let der = Self.der(of: entry.session) else { continue }
            let chain = entry.chain.map { Base64.encode($0.derBytes) }.joined(separator: ",")
            text += "\(entry.key) \(Base64.encode(der)) \(chain)\n"
        }
        return text
    }

    func decode(_ text: String, now: Int) -> [Entry] {
        var lines = text.split(separator: "\n")[...]
        guard let first = lines.popFirst(), first == "\(Self.header) \(identity)" else { return [] }
        return lines.compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[0].isEmpty, let der = Base64.decode(String(fields[1])),
                let session = Self.session(fromDER: der, now: now)
            else { return nil }
            var chain: [Certificate] = []
            for field in fields[2].split(separator: ",") {
                guard let bytes = Base64.decode(String(field)), let certificate = try? Certificate(derEncoded: bytes)
                else { return nil }
                chain.append(certificate)
            }
            guard !chain.isEmpty else { return nil }
            return Entry(key: String(fields[0]), session: session, chain: chain)
        }
    }

    /// The session's DER form, nil if OpenSSL cannot encode it.
    private static func der(of session: SessionHandle) -> [UInt8]? {
        let length = i2d_SSL_SESSION(session.pointer, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        // SAFETY: i2d writes exactly `length` bytes (the size it just reported) at the pointer,
        // which addresses `bytes`' buffer for the duration of the closure.
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_SSL_SESSION(session.pointer, &cursor)
        }
        return written == length ? bytes : nil
    }

    /// A resumable, unexpired session from its DER form, or nil.
    private static func session(fromDER der: [UInt8], now: Int) -> SessionHandle? {
        // SAFETY: d2i reads at most `der.count` bytes from the buffer, valid inside the closure;
        // it returns a new session we own (or nil).
        let pointer = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_SSL_SESSION(nil, &cursor, buffer.count)
        }
        guard let pointer else {
            ERR_clear_error()
            return nil
        }
        let handle = SessionHandle(takingOwnershipOf: pointer)
        let expires = Int(SSL_SESSION_get_time(pointer)) + Int(SSL_SESSION_get_timeout(pointer))
        guard SSL_SESSION_is_resumable(pointer) == 1, expires > now else { return nil }
        return handle
    }

    // MARK: File I/O

    /// The file's text, nil if it cannot be read, is too large or is not UTF-8.
    private static func readText(_ path: String) -> String? {
        guard let bytes = try? FileIO.system.contentsOfFile(path, limit: maximumFileBytes) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Replaces the file with `entries`, atomically (`FileIO.replaceAtomically`, mode 0600).
    /// Failures leave the old file; they are not reported (the cache works without the file).
    private func replaceFile(with entries: [Entry]) {
        try? FileIO.system.replaceAtomically(path, with: Array(encode(entries).utf8), permissions: 0o600)
    }
}
