// The seam between a channel and the kernel: the calls on a connected socket's data path.
//
// Production uses `SocketIO.system`; tests substitute a script ("the next read returns 7 bytes,
// then EAGAIN"; "sendmsg takes 3 bytes, then fails with ECONNRESET") to reach every branch of the
// channel without depending on the kernel's timing (STYLE.md habit 10).
import CWickSystem

/// The system calls a `Channel` makes on its descriptor, as replaceable function values.
struct SocketIO: Sendable {
    /// Reads into the buffer: bytes read (`0` at end of file), or `.wouldBlock`.
    var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) -> IOResult<Int>
    /// Gathered write of the vectors: bytes written, or `.wouldBlock`.
    var write:
        @Sendable (_ fd: Int32, _ vectors: UnsafeMutableBufferPointer<iovec>) throws(SyscallError) -> IOResult<Int>
    /// `shutdown(fd, SHUT_WR)`.
    var shutdownWrite: @Sendable (_ fd: Int32) throws(SyscallError) -> Void
    /// The pending socket error (`SO_ERROR`), 0 if none.
    var pendingError: @Sendable (_ fd: Int32) throws(SyscallError) -> Int32

    /// The real system calls.
    static let system = SocketIO(
        read: { (fd, buffer) throws(SyscallError) in try Syscalls.read(fd, buffer) },
        write: { (fd, vectors) throws(SyscallError) in try Syscalls.sendmsg(fd, vectors) },
        shutdownWrite: { (fd) throws(SyscallError) in try Syscalls.shutdown(fd, how: Int32(SHUT_WR)) },
        pendingError: { (fd) throws(SyscallError) in try Syscalls.socketOption(fd, level: SOL_SOCKET, name: SO_ERROR) }
    )
}
