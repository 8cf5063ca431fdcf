// A validated Unix domain socket path: not empty, no NUL byte, short enough for `sun_path`.
import WickReactor

/// The file-system path of a Unix domain socket a request is sent to, checked once when made so
/// that a bad path fails the request before any connection attempt. The path is kept as given:
/// relative paths are resolved by the kernel against the process's working directory at connect
/// time, and no symlink or `..` is resolved (so two spellings of one socket are two pool origins).
package struct UnixSocketPath: Hashable, Sendable, CustomStringConvertible {
    /// The longest path, in bytes of UTF-8: `sun_path` (108 bytes on Linux) less its NUL, so 107.
    static let maximumLength = SocketAddress.maximumUnixPathLength

    /// The path as given.
    package let path: String

    /// A socket path.
    /// - Throws: `UnixSocketError.emptyPath`, `.pathContainsNUL`, or `.pathTooLong` beyond
    ///   `maximumLength` bytes.
    init(_ path: String) throws(UnixSocketError) {
        guard !path.isEmpty else { throw .emptyPath }
        guard !path.utf8.contains(0) else { throw .pathContainsNUL(path) }
        let length = path.utf8.count
        guard length <= Self.maximumLength else {
            throw .pathTooLong(path, length: length, limit: Self.maximumLength)
        }
        self.path = path
    }

    /// The reactor's address for this socket.
    var address: SocketAddress { .unix(path: path) }

    /// `unix:/run/app.sock`.
    package var description: String { "unix:\(path)" }
}
