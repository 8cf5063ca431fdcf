// The file system calls Wick makes (open, read, pread, write, fstat, stat, ftruncate, close,
// unlink, rename), one wrapper each, for multipart encoding, downloads, uploads, logging and
// cookie files.
//
// Rules every wrapper follows (the file side of Syscalls.swift's rules, STYLE.md habit 9):
// - `EINTR` is retried inside the wrapper; callers never see it. `close` is the exception: on
//   Linux the descriptor is released even when close is interrupted, so `EINTR` is success.
// - Every other errno becomes one `FileIOError` naming the call and the path.
// - `EBADF` is an error here, not a trap as in Syscalls.swift: these wrappers also write to
//   descriptors Wick did not open (standard error), which the process may have closed.
// - `writeAll` writes until every byte is out, however short each write is.
//
// Why here: WickReactor is Wick's syscall layer (errno read and described in one place, a seam
// for scripting the kernel), and `Wick` already imports it; WickCore would do too, but the
// sans-I/O modules import WickCore, and they must not be able to reach a system call. The layer
// is `package`: users never see it.
//
// SAFETY (file-wide invariant): every pointer handed to the raw calls here points into memory the
// caller keeps alive for the duration of the call, sized by the count passed alongside it.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Wick's file system calls, one wrapper each, over replaceable raw calls (`FileCalls`).
///
/// Production code uses `FileIO.system`; tests build one over scripted calls to reach `EINTR`
/// and short writes, which the kernel will not produce on demand.
package struct FileIO: Sendable {
    /// The raw calls the wrappers make.
    let calls: FileCalls

    /// The real system calls.
    package static let system = FileIO(calls: .system)

    /// A layer over `calls` (tests pass scripted ones).
    init(calls: FileCalls) {
        self.calls = calls
    }

    /// Runs `body` (which returns the call's result, or `-errno`) until it does not fail with
    /// `EINTR`.
    @inline(__always)
    private func retrying(_ call: String, _ path: String, _ body: () -> Int) throws(FileIOError) -> Int {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = Int32(-result)
            if code != EINTR { throw FileIOError(call: call, path: path, errno: code) }
        }
    }

    /// Opens `path` as `mode` says and returns the descriptor, which the caller must `close`.
    /// - Throws: `FileIOError` for `open` (`ENOENT`, `EACCES`, `EEXIST`, `EISDIR`, ...).
    package func open(_ path: String, _ mode: FileOpenMode) throws(FileIOError) -> Int32 {
        let (flags, permissions) = mode.flags
        return Int32(try retrying("open", path) { calls.open(path, flags, permissions) })
    }

    /// Reads up to `buffer.count` bytes at the descriptor's position; returns how many were
    /// read, 0 only at the end of the file (or for an empty buffer).
    /// - Throws: `FileIOError` for `read` (`EISDIR` for a directory, `EIO`, ...).
    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(FileIOError)
        -> Int
    {
        try retrying("read", path) { calls.read(fd, buffer) }
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the descriptor's position;
    /// returns how many were read, 0 only at or past the end of the file.
    /// - Throws: `FileIOError` for `pread`.
    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, path: String)
        throws(FileIOError) -> Int
    {
        precondition(offset >= 0, "FileIO.read(at: \(offset)): a negative offset")
        return try retrying("pread", path) { calls.pread(fd, buffer, offset) }
    }

    /// Writes all of `bytes`, however many calls that takes (a write may take only some).
    /// - Throws: `FileIOError` for `write` (`ENOSPC` for a full disk, `EBADF` for a closed
    ///   descriptor, ...); a write that takes no byte is `EIO`, since retrying it could loop forever.
    package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileIOError) {
        var written = 0
        while written < bytes.count {
            // SAFETY: written < bytes.count, so the rebased slice lies inside `bytes`.
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            let result = try retrying("write", path) { calls.write(fd, rest) }
            guard result > 0 else { throw FileIOError(call: "write", path: path, errno: EIO) }
            written += result
        }
    }

    /// Writes all of `bytes`; see `writeAll(_:_:path:)`.
    /// - Throws: `FileIOError` for `write`.
    package func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>, path: String) throws(FileIOError) {
        // The storage's closure rethrows untyped errors, so the typed one travels as a Result.
        // SAFETY: `buffer` is the collection's own contiguous storage (an array's, a `Data`'s),
        // valid inside this closure; writeAll(_:_:path:) uses it only during the call and keeps
        // no pointer.
        let outcome = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(FileIOError) in try writeAll(fd, UnsafeRawBufferPointer(buffer), path: path) }
        }
        // A collection without contiguous storage is copied into an array, which has it.
        try (outcome ?? Result { () throws(FileIOError) in try writeAll(fd, Array(bytes), path: path) }).get()
    }

    /// The size and kind of the open file `fd`.
    /// - Throws: `FileIOError` for `fstat`.
    package func status(of fd: Int32, path: String) throws(FileIOError) -> FileStatus {
        var information = stat()
        _ = try retrying("fstat", path) { calls.fstat(fd, &information) }
        return FileStatus(information)
    }

    /// The size and kind of the file at `path`, following symbolic links.
    /// - Throws: `FileIOError` for `stat` (`ENOENT` when there is none).
    package func status(atPath path: String) throws(FileIOError) -> FileStatus {
        var information = stat()
        _ = try retrying("stat", path) { calls.stat(path, &information) }
        return FileStatus(information)
    }

    /// Cuts or extends the open file `fd` to `length` bytes.
    /// - Throws: `FileIOError` for `ftruncate`.
    package func truncate(_ fd: Int32, to length: Int64, path: String) throws(FileIOError) {
        _ = try retrying("ftruncate", path) { calls.ftruncate(fd, length) }
    }

    /// Closes `fd`. `EINTR` counts as closed (Linux releases the descriptor even then).
    /// - Throws: `FileIOError` for `close` (`EIO`: written data may not have reached the disk).
    package func close(_ fd: Int32, path: String) throws(FileIOError) {
        let result = calls.close(fd)
        if result < 0 && Int32(-result) != EINTR {
            throw FileIOError(call: "close", path: path, errno: Int32(-result))
        }
    }

    /// Removes the directory entry `path`.
    /// - Throws: `FileIOError` for `unlink` (`ENOENT` when there is none).
    package func unlink(_ path: String) throws(FileIOError) {
        _ = try retrying("unlink", path) { calls.unlink(path) }
    }

    /// Moves `from` to `to`, replacing what `to` names, in one atomic step on one file system.
    /// - Throws: `FileIOError` for `rename` (`ENOENT`, `EACCES`, `EXDEV` across file systems).
    package func rename(_ from: String, to: String) throws(FileIOError) {
        _ = try retrying("rename", from) { calls.rename(from, to) }
    }
}
