// The output's destination, standard output or a file, written as the body arrives. A file is
// created only when the output begins, so `-f` on an error status leaves none, as curl; `-C`
// appends to it.
import FoundationEssentials
import Glibc

/// Standard output, or a file opened (with `--create-dirs`, its directories made) on first use.
final class OutputSink {
    /// The file, or nil for standard output.
    let path: String?
    /// `--create-dirs`.
    let createsDirectories: Bool
    /// `-C`: the file is appended to, not replaced.
    let appends: Bool
    /// The bytes are counted but go nowhere (a body `-C` has no use for).
    let discards: Bool
    /// The open file's descriptor; nil before the first write or for standard output.
    private var descriptor: Int32?

    /// A sink for `path` (nil: standard output), appending to the file with `appends`, or
    /// writing nowhere with `discards`.
    init(path: String?, createsDirectories: Bool, appends: Bool = false, discards: Bool = false) {
        self.path = path
        self.createsDirectories = createsDirectories
        self.appends = appends
        self.discards = discards
    }

    /// Writes `bytes`, opening the file first if this is the first write.
    /// - Throws: `CommandFailure` (23) when the file cannot be created or written.
    func write(_ bytes: some Collection<UInt8>) throws(CommandFailure) {
        guard !discards else { return }
        let target = try openedDescriptor()
        guard StandardStreams.write(bytes, to: target) else {
            throw CommandFailure(.writeError, "Failure writing output to destination")
        }
    }

    /// Creates the file if nothing was written (an empty body makes an empty file), and closes it.
    /// - Throws: `CommandFailure` (23) when the file cannot be created.
    func finish() throws(CommandFailure) {
        guard !discards else { return }
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
        let opened = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (appends ? O_APPEND : O_TRUNC), 0o666)
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
