// A download's temporary file: opened keeping a prefix, appended to in order, closed (one fd).
import FoundationEssentials
import WickReactor

/// The file a download writes its body into, through one file descriptor and the `FileIO`
/// layer. Only `DownloadSink`'s writer queue calls it, so it needs no lock; `@unchecked
/// Sendable` lets the queue's closures carry it.
final class DownloadFile: @unchecked Sendable {
    /// The file's path.
    let path: String
    private var descriptor: Int32
    /// Bytes in the file: where the next write goes.
    private(set) var length: Int64

    /// Opens (creating, with its directory, if needed) the file at `path`, keeps its first
    /// `keeping` bytes and drops the rest; writes then append after them.
    /// - Throws: `cannotCreateFile` naming the failed call's errno (`open` or `ftruncate`).
    init(path: String, keeping: Int64) throws(DownloadFailureReason) {
        // A directory that cannot be made shows as `open`'s errno (ENOENT, EACCES).
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor: Int32
        do {
            descriptor = try FileIO.system.open(path, .appending(permissions: 0o600))
        } catch {
            throw .cannotCreateFile(path: path, errno: error.errno)
        }
        do {
            try FileIO.system.truncate(descriptor, to: keeping, path: path)
        } catch {
            // Nothing written yet: a failed close loses nothing.
            try? FileIO.system.close(descriptor, path: path)
            throw .cannotCreateFile(path: path, errno: error.errno)
        }
        self.path = path
        self.descriptor = descriptor
        length = keeping
    }

    deinit {
        if descriptor >= 0 { try? FileIO.system.close(descriptor, path: path) }
    }

    /// Appends `bytes`, however many writes that takes.
    /// - Throws: `cannotWriteFile` naming `write`'s errno (`ENOSPC` for a full disk).
    func write(_ bytes: Data) throws(DownloadFailureReason) {
        precondition(descriptor >= 0, "DownloadFile.write: \(path) is closed")
        do {
            try FileIO.system.writeAll(descriptor, bytes, path: path)
        } catch {
            throw .cannotWriteFile(path: path, errno: error.errno)
        }
        length += Int64(bytes.count)
    }

    /// Closes the descriptor; later calls do nothing. A failed close is not reported: every
    /// write before it has already succeeded, and the download is judged by its length.
    func close() {
        guard descriptor >= 0 else { return }
        try? FileIO.system.close(descriptor, path: path)
        descriptor = -1
    }

    /// The size of the regular file at `path`, or nil when there is none (or it is not a
    /// regular file, or cannot be examined).
    static func size(atPath path: String) -> Int64? {
        guard let status = try? FileIO.system.status(atPath: path), status.isRegularFile else { return nil }
        return status.size
    }
}
