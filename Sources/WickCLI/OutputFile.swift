// Where `-o`, `-O`, `--output-dir` and `--create-dirs` put the body, and writing it there.
public import FoundationEssentials

extension TransferOptions {
    /// The file the output goes to: `-o PATH` (`-o -` is standard output), or with `-O` the
    /// last path segment of `url`; under `--output-dir` unless absolute. Nil: standard output.
    /// - Throws: `CommandFailure` (23) when `-O` finds no file name in the URL.
    public func outputPath(for url: URL?) throws(CommandFailure) -> String? {
        var path: String
        if let outputFile {
            guard outputFile != "-" else { return nil }
            path = outputFile
        } else if usesRemoteName {
            let name = url?.path(percentEncoded: false).split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            guard !name.isEmpty else { throw CommandFailure(.writeError, "Remote file name has no length!") }
            path = String(name)
        } else {
            return nil
        }
        if let outputDirectory, !path.hasPrefix("/") { path = outputDirectory + "/" + path }
        return path
    }
}

/// Writing the output to a file.
enum OutputFile {
    /// Writes `bytes` to the file at `path`, replacing it; with `creatingDirectories`, its
    /// missing parent directories are made first.
    /// - Throws: `CommandFailure` (23) when the directories or the file cannot be written.
    static func write(_ bytes: [UInt8], to path: String, creatingDirectories: Bool) throws(CommandFailure) {
        let file = URL(fileURLWithPath: path)
        do {
            if creatingDirectories {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            try Data(bytes).write(to: file)
        } catch {
            throw CommandFailure(.writeError, "Failure writing output to destination: \(path)")
        }
    }
}
