// Where `-o`, `-O`, `-J` and `--output-dir` put the output.
public import FoundationEssentials

extension TransferOptions {
    /// The file the output of `target` goes to: `-o PATH` (`-o -` is standard output), or with
    /// `-O` the last path segment of `url` (with `-J`, the `filename` of `contentDisposition`
    /// when it names one, its directories dropped); under `--output-dir` unless absolute. Nil:
    /// standard output.
    /// - Throws: `CommandFailure` (23) when `-O` finds no file name in the URL.
    public func outputPath(
        _ target: OutputTarget?, url: URL?, contentDisposition: String? = nil
    ) throws(CommandFailure) -> String? {
        var path: String
        switch target {
        case nil, .file("-"):
            return nil
        case .file(let file):
            path = file
        case .remoteName:
            if usesHeaderName, let name = contentDisposition.flatMap(Self.fileName(in:)) {
                path = name
                break
            }
            let name = url?.path(percentEncoded: false).split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            guard !name.isEmpty else { throw CommandFailure(.writeError, "Remote file name has no length!") }
            path = String(name)
        }
        if let outputDirectory, !path.hasPrefix("/") { path = outputDirectory + "/" + path }
        return path
    }

    /// The byte offset `-C` resumes at: its number, or for `-C -` the size of the file at
    /// `path` (0 when there is none, or no file); nil without `-C` or at offset 0.
    public func resumeOffset(outputPath path: String?) -> Int? {
        guard let continueAt else { return nil }
        let offset: Int
        if continueAt == "-" {
            // FoundationEssentials gives the size as a UInt.
            let size = path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? UInt }
            offset = size.map { Int($0) } ?? 0
        } else {
            offset = Int(continueAt) ?? 0
        }
        return offset > 0 ? offset : nil
    }

    /// The file name a Content-Disposition value gives (`attachment; filename="a.txt"`), as
    /// curl's `-J` takes it: the `filename` parameter, quoted or not, after its last `/`; nil
    /// when there is none or it is empty.
    static func fileName(in contentDisposition: String) -> String? {
        for parameter in contentDisposition.split(separator: ";") {
            let trimmed = parameter.drop { $0 == " " || $0 == "\t" }
            guard trimmed.lowercased().hasPrefix("filename=") else { continue }
            var value = trimmed.dropFirst("filename=".count)
            if value.hasPrefix("\"") {
                value = value.dropFirst().prefix { $0 != "\"" }
            } else {
                value = value.prefix { $0 != " " && $0 != "\t" }
            }
            let name = value.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            return name.isEmpty ? nil : name
        }
        return nil
    }
}
