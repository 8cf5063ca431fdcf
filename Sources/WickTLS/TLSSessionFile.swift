// TLS sessions kept in a file, so a restarted client resumes instead of paying full handshakes.
internal import CWickOpenSSL
import Dispatch
import Synchronization

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
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= maximumFileBytes {
            // SAFETY: read writes at most chunk.count bytes into chunk's buffer.
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(validating: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
        return nil
    }

    /// Replaces the file with `entries`: a temporary file (0600) written, synced and renamed
    /// over it, so a reader or a crash sees the old file or the new one, never half of one.
    /// Failures leave the old file; they are not reported (the cache works without the file).
    private func replaceFile(with entries: [Entry]) {
        let bytes = Array(encode(entries).utf8)
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var offset = 0
        while offset < bytes.count {
            // SAFETY: write reads bytes.count - offset bytes from inside bytes' buffer.
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
        let complete = offset == bytes.count && fsync(fd) == 0
        close(fd)
        if !complete || rename(temporary, path) != 0 { unlink(temporary) }
    }
}
