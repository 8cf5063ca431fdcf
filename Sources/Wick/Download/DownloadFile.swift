// A download's temporary file: opened at an offset, written in order, closed (POSIX, one fd).
import FoundationEssentials
import Glibc

/// The file a download writes its body into, through one file descriptor. Only
/// `DownloadSink`'s writer queue calls it, so it needs no lock; `@unchecked Sendable` lets the
/// queue's closures carry it. The one unsafe expression (handing `write(2)` the chunk's bytes)
/// is here.
final class DownloadFile: @unchecked Sendable {
    /// The file's path.
    let path: String
    private var descriptor: Int32
    /// Bytes in the file: where the next write goes.
    private(set) var length: Int64

    /// Opens (creating, with its directory, if needed) the file at `path`, keeps its first
    /// `keeping` bytes and drops the rest, and positions writes after them.
    /// - Throws: `cannotCreateFile` naming the call's errno.
    init(path: String, keeping: Int64) throws(DownloadFailureReason) {
        // A directory that cannot be made shows as `open`'s errno (ENOENT, EACCES).
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotCreateFile(path: path, errno: errno) }
        guard ftruncate(descriptor, off_t(keeping)) == 0, lseek(descriptor, off_t(keeping), SEEK_SET) == off_t(keeping)
        else {
            let failure = errno
            Glibc.close(descriptor)
            throw .cannotCreateFile(path: path, errno: failure)
        }
        self.path = path
        self.descriptor = descriptor
        length = keeping
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Appends `bytes`, retrying short writes and `EINTR`.
    /// - Throws: `cannotWriteFile` naming `write`'s errno (`ENOSPC` for a full disk).
    func write(_ bytes: [UInt8]) throws(DownloadFailureReason) {
        precondition(descriptor >= 0, "DownloadFile.write: \(path) is closed")
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                // SAFETY: `buffer` is `bytes`' storage, valid for this closure; the range from
                // `written` lies inside it because `written < bytes.count`.
                Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .cannotWriteFile(path: path, errno: errno)
            }
            written += result
        }
        length += Int64(bytes.count)
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(atPath path: String) -> Int64? {
        var information = stat()
        guard stat(path, &information) == 0, (information.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(information.st_size)
    }
}
