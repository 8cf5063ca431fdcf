// The output's destination, standard output or a file, written as the body arrives. A file is
// created only when the output begins, so `-f` on an error status leaves none, as curl.
import FoundationEssentials
import Glibc

/// Standard output, or a file opened (with `--create-dirs`, its directories made) on first use.
final class OutputSink {
    /// The file, or nil for standard output.
    let path: String?
    /// `--create-dirs`.
    let createsDirectories: Bool
    /// The open file's descriptor; nil before the first write or for standard output.
    private var descriptor: Int32?

    /// A sink for `path` (nil: standard output).
    init(path: String?, createsDirectories: Bool) {
        self.path = path
        self.createsDirectories = createsDirectories
    }

    /// Writes `bytes`, opening the file first if this is the first write.
    /// - Throws: `CommandFailure` (23) when the file cannot be created or written.
    func write(_ bytes: some Collection<UInt8>) throws(CommandFailure) {
        let target = try openedDescriptor()
        guard StandardStreams.write(bytes, to: target) else {
            throw CommandFailure(.writeError, "Failure writing output to destination")
        }
    }

    /// Creates the file if nothing was written (an empty body makes an empty file), and closes it.
    /// - Throws: `CommandFailure` (23) when the file cannot be created.
    func finish() throws(CommandFailure) {
        let target = try openedDescriptor()
        if target != StandardStreams.output { _ = Glibc.close(target) }
        descriptor = nil
    }

    /// The descriptor to write to, the file opened (and truncated) on first use.
    private func openedDescriptor() throws(CommandFailure) -> Int32 {
        guard let path else { return StandardStreams.output }
        if let descriptor { return descriptor }
        if createsDirectories {
            try? FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let opened = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard opened >= 0 else {
            throw CommandFailure(.writeError, "Failed to open the file \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = opened
        return opened
    }

    deinit {
        if let descriptor { _ = Glibc.close(descriptor) }
    }
}
