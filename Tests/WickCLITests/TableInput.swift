// Files and standard input for option tests: a table instead of the file system.
import WickCLI

/// `@file` contents from a dictionary; `-` is standard input.
struct TableInput: ArgumentInput {
    /// Path to contents.
    var files: [String: String] = [:]

    func contents(ofFile path: String) -> [UInt8]? {
        files[path].map { Array($0.utf8) }
    }
}

extension TransferOptions {
    /// The options of `words` with files from `files`.
    static func parsing(_ words: [String], files: [String: String] = [:]) throws(CommandFailure) -> TransferOptions {
        try TransferOptions(arguments: words, input: TableInput(files: files))
    }

    /// The body as text.
    var dataText: String? { data.map { String(decoding: $0, as: UTF8.self) } }
}
