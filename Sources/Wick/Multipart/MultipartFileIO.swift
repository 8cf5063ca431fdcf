// The file system calls multipart encoding makes (open, fstat, read, write, close, unlink), one wrapper each.
//
// Invariant for the unsafe code here: every buffer handed to the kernel is the live storage of a
// Swift array or buffer pointer borrowed for the duration of the call, and the count passed is
// never more than that storage's size. EINTR is retried inside each wrapper; every other errno
// becomes `MultipartIOError.systemCallFailed` naming the call and the path.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One wrapper per system call the multipart encoder makes on files.
enum MultipartFileIO {
    /// Opens `path` read-only (close-on-exec).
    static func openForReading(_ path: String) throws(MultipartIOError) -> Int32 {
        while true {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .systemCallFailed(call: "open", path: path, errno: errno) }
        }
    }

    /// Creates `path` for writing (mode 0644, close-on-exec); fails with `EEXIST` if it exists.
    static func createExclusively(_ path: String) throws(MultipartIOError) -> Int32 {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .systemCallFailed(call: "open", path: path, errno: errno) }
        }
    }

    /// The size in bytes of the open file `fd` (named `path` in errors).
    static func size(of fd: Int32, path: String) throws(MultipartIOError) -> UInt64 {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .systemCallFailed(call: "fstat", path: path, errno: errno) }
        return UInt64(status.st_size)
    }

    /// Reads up to `buffer.count` bytes from `fd` into `buffer`; returns how many were read, 0
    /// only at the end of the file.
    static func readChunk(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String)
        throws(MultipartIOError) -> Int
    {
        precondition(!buffer.isEmpty, "MultipartFileIO.readChunk: the buffer is empty")
        while true {
            // SAFETY: `buffer` is memory the caller lends for this call; the kernel writes at
            // most `buffer.count` bytes from its start.
            let result = read(fd, buffer.baseAddress, buffer.count)
            if result >= 0 { return result }
            if errno != EINTR { throw .systemCallFailed(call: "read", path: path, errno: errno) }
        }
    }

    /// Writes all of `bytes` to `fd`, however many calls that takes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(MultipartIOError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                // SAFETY: `buffer` is the array's storage of `bytes.count` bytes and
                // `written < bytes.count`, so the range handed to the kernel is inside it.
                write(fd, buffer.baseAddress! + written, bytes.count - written)
            }
            if result >= 0 {
                written += result
            } else if errno != EINTR {
                throw .systemCallFailed(call: "write", path: path, errno: errno)
            }
        }
    }

    /// Closes `fd`. A failure matters only for a file we wrote (data may not have reached the
    /// disk), so it is thrown; readers ignore it.
    static func closeDescriptor(_ fd: Int32, path: String) throws(MultipartIOError) {
        // EINTR is not retried: on Linux the descriptor is released even when close is interrupted.
        if close(fd) != 0 && errno != EINTR {
            throw .systemCallFailed(call: "close", path: path, errno: errno)
        }
    }

    /// Removes `path`, ignoring failure (it is cleanup after another error).
    static func removeQuietly(_ path: String) {
        _ = unlink(path)
    }
}
