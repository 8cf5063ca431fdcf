// Running `curl` or the built `wick` with the same arguments in a directory of its own, and
// collecting what it did: exit status, standard output and error, files written.
import Foundation
import WickTestSupport

/// What one run of a command produced.
struct CommandRun {
    /// The exit status.
    let status: Int32
    /// Standard output.
    let output: [UInt8]
    /// Standard error.
    let error: [UInt8]
    /// The files the command wrote in its directory (relative paths to contents), fixtures
    /// excluded.
    let files: [String: [UInt8]]

    /// Standard output as text.
    var outputText: String { String(decoding: output, as: UTF8.self) }
    /// Standard error as text.
    var errorText: String { String(decoding: error, as: UTF8.self) }

    /// The files every run's directory starts with, readable by `@file`, `<file` and stdin.
    static let fixtures: [String: String] = [
        "data.txt": "hello\r\nworld &x\n",
        "headers.txt": "X-From-File: 1\r\nX-Second: two\n\n",
        "body.json": "{\"k\": [1, 2]}\n",
        "wick.cfg": "# a comment\n\n  silent\nheader = \"X-Cfg: from \\\"file\\\"\"\ndata-urlencode: \"a=b c\"\n-A golden\nnot-an-option x\n",
    ]

    /// Runs `executable` with `arguments` in a fresh directory holding `fixtures` and `seeds`
    /// (which, unlike the fixtures, count among the files written: a resumed file), standard
    /// input from the fixture `standardInput` (else `/dev/null`), bounded at 30 s.
    /// - Throws: when the directory cannot be made or the command cannot be started.
    init(
        _ executable: String, _ arguments: [String], standardInput: String? = nil, seeds: [String: [UInt8]] = [:]
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, contents) in Self.fixtures {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        for (name, contents) in seeds {
            try Data(contents).write(to: directory.appendingPathComponent(name))
        }
        let input = standardInput.map { " <\($0)" } ?? ""
        let script = "exec \"$0\" \"$@\" >.stdout 2>.stderr\(input)"
        (_, status) = try runCommandCapturingStatus(
            "/bin/sh", ["-c", script, executable] + arguments, in: directory, timeout: .seconds(30))
        output = Array(try Data(contentsOf: directory.appendingPathComponent(".stdout")))
        error = Array(try Data(contentsOf: directory.appendingPathComponent(".stderr")))
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !path.hasPrefix("."), Self.fixtures[path] == nil
            else { continue }
            files[path] = Array(try Data(contentsOf: url))
        }
        self.files = files
    }

    /// The built `wick` of this package (`.build/debug/wick`, which Scripts/test builds).
    static var wickPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/wick").path
    }
}
