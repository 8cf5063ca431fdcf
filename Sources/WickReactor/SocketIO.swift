// The seam between a channel and the kernel: the calls on a connected socket's data path.
//
// Production uses `SocketIO.system`; tests substitute a script ("the next read returns 7 bytes,
// then EAGAIN"; "sendmsg takes 3 bytes, then fails with ECONNRESET") to reach every branch of the
// channel without depending on the kernel's timing (STYLE.md habit 10).
import CWickSystem

/// The system calls a `Channel` makes on its descriptor, as replaceable function values.
///
/// SPI (`@_spi(WickSocketSeam)`), not API: for the packages of this repository that script the
/// kernel from outside WickReactor (the whole-client fuzz target), with
/// `Channel(registering:on:remoteAddress:options:io:)`.
@_spi(WickSocketSeam) public struct SocketIO: Sendable {
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
        read: { (fd, buffer) throws(SyscallError) in try Syscalls.receive(fd, buffer) },
        // One buffer, the usual write (a request head, a record), goes by `send`.
        write: { (fd, vectors) throws(SyscallError) in
            guard vectors.count == 1 else { return try Syscalls.sendmsg(fd, vectors) }
            // SAFETY: the iovec describes bytes the channel keeps alive during the call.
            return try Syscalls.send(fd, UnsafeRawBufferPointer(start: vectors[0].iov_base, count: vectors[0].iov_len))
        },
        shutdownWrite: { (fd) throws(SyscallError) in try Syscalls.shutdown(fd, how: Int32(SHUT_WR)) },
        pendingError: { (fd) throws(SyscallError) in try Syscalls.socketOption(fd, level: SOL_SOCKET, name: SO_ERROR) }
    )
}

extension SocketIO {
    /// A scripted seam, for code outside WickReactor: `read` fills the buffer, `write` is
    /// offered the queued bytes as one buffer per queued slice (in order) and says how many it
    /// took, `shutdownWrite` and `pendingError` stand for `shutdown(SHUT_WR)` and `SO_ERROR`.
    /// Each may throw `SyscallError`, which the channel maps as it maps a real call's
    /// (`ReactorError(_:)`): a read or write error closes the channel.
    @_spi(WickSocketSeam) public init(
        read:
            @escaping @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) ->
            IOResult<Int>,
        write:
            @escaping @Sendable (_ fd: Int32, _ buffers: [UnsafeRawBufferPointer]) throws(SyscallError) ->
            IOResult<Int>,
        shutdownWrite: @escaping @Sendable (_ fd: Int32) throws(SyscallError) -> Void,
        pendingError: @escaping @Sendable (_ fd: Int32) throws(SyscallError) -> Int32
    ) {
        self.init(
            read: read,
            write: { (fd: Int32, vectors: UnsafeMutableBufferPointer<iovec>) throws(SyscallError) -> IOResult<Int> in
                // SAFETY: each iovec describes bytes the channel keeps alive during the call.
                try write(fd, vectors.map { UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len) })
            },
            shutdownWrite: shutdownWrite, pendingError: pendingError)
    }
}
