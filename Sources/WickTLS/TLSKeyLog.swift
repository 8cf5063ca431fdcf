// Where TLS secrets go when a person debugging with Wireshark asks for them (NSS key log format).
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A sink for TLS secrets in the NSS key log format (one `CLIENT_RANDOM ...` or
/// `CLIENT_HANDSHAKE_TRAFFIC_SECRET ...` line per secret), the format of `SSLKEYLOGFILE` that
/// Wireshark reads. Off unless a configuration sets one: anyone holding the log can decrypt the
/// captured traffic.
public final class TLSKeyLog: Sendable, Hashable {
    private let write: @Sendable (String) -> Void

    /// A key log that hands each line (without its newline) to `write`, on the thread that runs
    /// the handshake; `write` must be quick and must not block.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// A key log that appends to the file at `path` (created if needed), or nil if it cannot be
    /// opened.
    public static func appending(toFileAtPath path: String) -> TLSKeyLog? {
        guard let file = fopen(path, "a") else { return nil }
        let handle = Mutex(FileHandleBox(file: file))
        return TLSKeyLog { line in
            handle.withLock { box in
                // SAFETY: the FILE stays open for the process's life; the mutex serialises writers.
                fputs(line + "\n", box.file)
                fflush(box.file)
            }
        }
    }

    /// The key log `SSLKEYLOGFILE` names, or nil when the variable is unset or the file cannot be
    /// opened.
    public static func fromEnvironment() -> TLSKeyLog? {
        // SAFETY: getenv's string is copied at once, before anything can change the environment.
        guard let path = getenv("SSLKEYLOGFILE").map({ String(cString: $0) }), !path.isEmpty else { return nil }
        return appending(toFileAtPath: path)
    }

    /// Records one line.
    func record(_ line: String) { write(line) }

    /// Identity.
    public static func == (lhs: TLSKeyLog, rhs: TLSKeyLog) -> Bool { lhs === rhs }

    /// Identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// An open `FILE*`, moved into the mutex that guards it.
private struct FileHandleBox: ~Copyable, @unchecked Sendable {
    // @unchecked: the pointer is only used inside Mutex.withLock, so one thread at a time.
    let file: UnsafeMutablePointer<FILE>
}
