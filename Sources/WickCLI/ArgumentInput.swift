// Where `@file` and `@-` arguments are read from: the file system and standard input, or a
// test's table.
import FoundationEssentials

/// Reads the files an argument names (`-d @file`, `-H @file`, `-F name=<file`); `-` is
/// standard input. Tests give a table instead of the file system.
public protocol ArgumentInput: Sendable {
    /// The bytes of the file at `path` (standard input for `-`), or nil when it cannot be read.
    func contents(ofFile path: String) -> [UInt8]?
}

/// The file system and the process's standard input.
public struct SystemArgumentInput: ArgumentInput {
    /// The real files.
    public init() {}

    /// The file's bytes, or standard input read to its end for `-`.
    public func contents(ofFile path: String) -> [UInt8]? {
        if path == "-" { return StandardStreams.readStandardInput() }
        return (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) }
    }
}
