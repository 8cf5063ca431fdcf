// The seam between FileIO and the kernel: the raw file calls, each returning its result or -errno.
//
// Production uses `FileCalls.system`; tests substitute a script ("the next write takes 3 bytes,
// then EINTR, then the rest") to reach the retry and short-write paths of `FileIO`, which a real
// file will not produce on demand (STYLE.md habit 10).
//
// SAFETY (file-wide invariant): every pointer handed to the kernel here is one the caller passed
// in, valid for the duration of the call and sized by the count passed alongside it.
import CWickSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The raw file calls under `FileIO`, as replaceable function values. Each returns what the
/// system call returns when it succeeds, and `-errno` when it fails; none retries anything.
struct FileCalls: Sendable {
    /// `open(path, flags, mode)`: a descriptor.
    var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int
    /// `read(fd, buffer)`: bytes read.
    var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int
    /// `pread(fd, buffer, offset)`: bytes read.
    var pread: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64) -> Int
    /// `write(fd, bytes)`: bytes written.
    var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    /// `fstat(fd, record)`: 0.
    var fstat: @Sendable (_ fd: Int32, _ record: UnsafeMutablePointer<stat>) -> Int
    /// `stat(path, record)`: 0.
    var stat: @Sendable (_ path: String, _ record: UnsafeMutablePointer<stat>) -> Int
    /// `ftruncate(fd, length)`: 0.
    var ftruncate: @Sendable (_ fd: Int32, _ length: Int64) -> Int
    /// `close(fd)`: 0.
    var close: @Sendable (_ fd: Int32) -> Int
    /// `unlink(path)`: 0.
    var unlink: @Sendable (_ path: String) -> Int
    /// `rename(from, to)`: 0.
    var rename: @Sendable (_ from: String, _ to: String) -> Int

    /// `result` when it is not -1, otherwise `-errno`, read at once.
    @inline(__always)
    private static func checked(_ result: some BinaryInteger) -> Int {
        result == -1 ? -Int(cwick_errno()) : Int(result)
    }

    /// The real system calls.
    static let system = FileCalls(
        open: { path, flags, mode in checked(Glibc.open(path, flags, mode)) },
        // SAFETY: the buffers are the callers', valid for their count during the call.
        read: { fd, buffer in checked(Glibc.read(fd, buffer.baseAddress, buffer.count)) },
        pread: { fd, buffer, offset in checked(Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset))) },
        write: { fd, bytes in checked(Glibc.write(fd, bytes.baseAddress, bytes.count)) },
        fstat: { fd, record in checked(Glibc.fstat(fd, record)) },
        // fstatat relative to the working directory is stat(2); Swift sees `stat` as the record.
        stat: { path, record in checked(fstatat(AT_FDCWD, path, record, 0)) },
        ftruncate: { fd, length in checked(Glibc.ftruncate(fd, off_t(length))) },
        close: { fd in checked(Glibc.close(fd)) },
        unlink: { path in checked(Glibc.unlink(path)) },
        rename: { from, to in checked(Glibc.rename(from, to)) }
    )
}
