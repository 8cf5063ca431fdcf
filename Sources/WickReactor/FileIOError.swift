// A failed file system call of the FileIO layer: the call, the path and errno.

/// A failed file system call: which call, on which path, and the errno it returned.
package struct FileIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call's name: `open`, `read`, `pread`, `write`, `fstat`, `stat`, `ftruncate`,
    /// `close` or `unlink`.
    package let call: String
    /// The path the call was about (for a descriptor, the path it was opened with).
    package let path: String
    /// The errno value.
    package let errno: Int32

    /// A failure of `call` on `path` with `errno`.
    package init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// `open /tmp/a: errno 2 (No such file or directory)`.
    package var description: String { "\(call) \(path): \(Syscalls.describe(errno: errno))" }
}
