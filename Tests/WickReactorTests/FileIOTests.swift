// The FileIO layer: real files for what the kernel does on its own (missing files, directories,
// existing paths, offsets), and scripted calls (FileCalls) for EINTR and short writes.
import Foundation
import Testing

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

/// Raw file calls that answer from a script: each call takes the next result scripted for its
/// name (a count, or `-errno`), and behaves like a quiet kernel once its script is empty (reads
/// fill the buffer with `x`, writes take every byte, the rest return 0). Calls are recorded.
final class ScriptedFileCalls: Sendable {
    private struct State {
        var results: [String: [Int]] = [:]
        var calls: [String] = []
        var written: [UInt8] = []
    }

    private let state = Locked(State())

    /// Queues `results` for the calls named `call`.
    func script(_ call: String, _ results: [Int]) {
        state.withLock { $0.results[call, default: []] += results }
    }

    /// The names of the calls made, in order.
    var calls: [String] { state.withLock { $0.calls } }
    /// Every byte the writes took, in order.
    var written: [UInt8] { state.withLock { $0.written } }

    /// The next scripted result for `call`, or `quiet` when none is left.
    private func next(_ call: String, quiet: Int) -> Int {
        state.withLock { state in
            state.calls.append(call)
            guard var queue = state.results[call], !queue.isEmpty else { return quiet }
            let result = queue.removeFirst()
            state.results[call] = queue
            return result
        }
    }

    var layer: FileIO {
        FileIO(
            calls: FileCalls(
                open: { _, _, _ in self.next("open", quiet: 7) },
                read: { _, buffer in
                    let result = self.next("read", quiet: buffer.count)
                    if result > 0 { buffer.prefix(result).initializeMemory(as: UInt8.self, repeating: 0x78) }
                    return result
                },
                pread: { _, buffer, _ in
                    let result = self.next("pread", quiet: buffer.count)
                    if result > 0 { buffer.prefix(result).initializeMemory(as: UInt8.self, repeating: 0x78) }
                    return result
                },
                write: { _, bytes in
                    let result = self.next("write", quiet: bytes.count)
                    if result > 0 { self.state.withLock { $0.written += bytes.prefix(result) } }
                    return result
                },
                fstat: { _, record in
                    record.pointee = stat()
                    record.pointee.st_size = 42
                    record.pointee.st_mode = S_IFREG | 0o644
                    return self.next("fstat", quiet: 0)
                },
                stat: { _, record in
                    record.pointee = stat()
                    return self.next("stat", quiet: 0)
                },
                ftruncate: { _, _ in self.next("ftruncate", quiet: 0) },
                close: { _ in self.next("close", quiet: 0) },
                unlink: { _ in self.next("unlink", quiet: 0) },
                rename: { _, _ in self.next("rename", quiet: 0) }
            )
        )
    }
}

@Suite struct FileIOTests {
    /// A fresh directory for one test, removed afterwards by the caller's `defer`.
    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("wick-fileio-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// What `body` throws, as a `FileIOError`, or nil when it throws nothing. Any other error
    /// is recorded as an issue.
    static func failure(_ body: () throws -> Void) -> FileIOError? {
        do {
            try body()
            return nil
        } catch let error as FileIOError {
            return error
        } catch {
            Issue.record("expected a FileIOError, got \(error)")
            return nil
        }
    }

    // MARK: Real files

    @Test func writtenBytesReadBackWholeAndAtOffsets() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/file"
        let io = FileIO.system
        let writer = try io.open(path, .creatingExclusively(permissions: 0o600))
        try io.writeAll(writer, Array("hello, world".utf8), path: path)
        try io.close(writer, path: path)

        let reader = try io.open(path, .reading)
        defer { try? io.close(reader, path: path) }
        #expect(try io.status(of: reader, path: path) == FileStatus(size: 12, isRegularFile: true))
        #expect(try io.status(atPath: path) == FileStatus(size: 12, isRegularFile: true))
        var buffer = [UInt8](repeating: 0, count: 5)
        let first = try buffer.withUnsafeMutableBytes { try io.read(reader, into: $0, path: path) }
        #expect(first == 5 && buffer == Array("hello".utf8))
        let atOffset = try buffer.withUnsafeMutableBytes { try io.read(reader, into: $0, at: 7, path: path) }
        #expect(atOffset == 5 && buffer == Array("world".utf8))
        // pread did not move the position: the next read continues after "hello".
        let second = try buffer.withUnsafeMutableBytes { try io.read(reader, into: $0, path: path) }
        #expect(second == 5 && buffer == Array(", wor".utf8))
        let pastEnd = try buffer.withUnsafeMutableBytes { try io.read(reader, into: $0, at: 12, path: path) }
        #expect(pastEnd == 0)
    }

    @Test func appendingKeepsTheTruncatedPrefixAndWritesAfterIt() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/partial"
        try Data("abcdef".utf8).write(to: URL(fileURLWithPath: path))
        let io = FileIO.system
        let fd = try io.open(path, .appending(permissions: 0o600))
        try io.truncate(fd, to: 2, path: path)
        try io.writeAll(fd, Array("XY".utf8), path: path)
        try io.close(fd, path: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("abXY".utf8))
    }

    @Test func aMissingFileNamesTheCallAndThePath() {
        let path = "/nonexistent-wick-\(UUID().uuidString)/file"
        let io = FileIO.system
        #expect(Self.failure { _ = try io.open(path, .reading) } == FileIOError(call: "open", path: path, errno: ENOENT))
        #expect(Self.failure { _ = try io.status(atPath: path) } == FileIOError(call: "stat", path: path, errno: ENOENT))
        #expect(Self.failure { try io.unlink(path) } == FileIOError(call: "unlink", path: path, errno: ENOENT))
        #expect(Self.failure { try io.rename(path, to: path + "2") } == FileIOError(call: "rename", path: path, errno: ENOENT))
        #expect(
            FileIOError(call: "open", path: path, errno: ENOENT).description
                == "open \(path): errno \(ENOENT) (No such file or directory)")
    }

    @Test func aDirectoryIsNotARegularFileAndCannotBeReadOrWritten() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let io = FileIO.system
        #expect(try io.status(atPath: directory).isRegularFile == false)
        #expect(
            Self.failure { _ = try io.open(directory, .appending(permissions: 0o600)) }
                == FileIOError(call: "open", path: directory, errno: EISDIR))
        // Linux opens a directory read-only; reading it is what fails.
        let fd = try io.open(directory, .reading)
        defer { try? io.close(fd, path: directory) }
        #expect(try io.status(of: fd, path: directory).isRegularFile == false)
        var buffer = [UInt8](repeating: 0, count: 8)
        let error = buffer.withUnsafeMutableBytes { buffer in
            Self.failure { _ = try io.read(fd, into: buffer, path: directory) }
        }
        #expect(error == FileIOError(call: "read", path: directory, errno: EISDIR))
    }

    @Test func creatingExclusivelyRefusesAnExistingPath() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(
            Self.failure { _ = try FileIO.system.open(directory, .creatingExclusively(permissions: 0o600)) }
                == FileIOError(call: "open", path: directory, errno: EEXIST))
    }

    @Test func writingToAClosedDescriptorIsAnErrorNotATrap() throws {
        // Standard error may be closed by the process; the layer reports EBADF.
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        Glibc.close(pipe[0])
        Glibc.close(pipe[1])
        #expect(
            Self.failure { try FileIO.system.writeAll(pipe[1], [1], path: "pipe") }
                == FileIOError(call: "write", path: "pipe", errno: EBADF))
    }

    // MARK: Scripted calls

    @Test func eintrIsRetriedInsideEveryCallButClose() throws {
        let kernel = ScriptedFileCalls()
        for call in ["open", "read", "pread", "write", "fstat", "stat", "ftruncate", "unlink", "rename"] {
            kernel.script(call, [-Int(EINTR), -Int(EINTR)])
        }
        let io = kernel.layer
        #expect(try io.open("p", .reading) == 7)
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(try buffer.withUnsafeMutableBytes { try io.read(3, into: $0, path: "p") } == 4)
        #expect(try buffer.withUnsafeMutableBytes { try io.read(3, into: $0, at: 9, path: "p") } == 4)
        try io.writeAll(3, [1, 2, 3], path: "p")
        #expect(try io.status(of: 3, path: "p") == FileStatus(size: 42, isRegularFile: true))
        _ = try io.status(atPath: "p")
        try io.truncate(3, to: 0, path: "p")
        try io.unlink("p")
        try io.rename("p", to: "q")
        #expect(kernel.written == [1, 2, 3])
        // Three calls each: two interrupted, one through.
        for call in ["open", "read", "pread", "write", "fstat", "stat", "ftruncate", "unlink", "rename"] {
            #expect(kernel.calls.filter { $0 == call }.count == 3, "\(call)")
        }

        // close: Linux releases the descriptor even when interrupted, so it is never retried.
        kernel.script("close", [-Int(EINTR)])
        try io.close(3, path: "p")
        #expect(kernel.calls.filter { $0 == "close" }.count == 1)
    }

    @Test func shortWritesAreContinuedUntilEveryByteIsOut() throws {
        let kernel = ScriptedFileCalls()
        kernel.script("write", [3, -Int(EINTR), 1, 2])
        let bytes = Array("0123456789".utf8)
        try kernel.layer.writeAll(5, bytes, path: "p")
        #expect(kernel.written == bytes)
        // 3, interrupted, 1, 2, then the quiet kernel takes the last 4.
        #expect(kernel.calls == ["write", "write", "write", "write", "write"])
    }

    @Test func aWriteFailureAfterAShortWriteNamesTheCall() {
        let kernel = ScriptedFileCalls()
        kernel.script("write", [4, -Int(ENOSPC)])
        let error = Self.failure { try kernel.layer.writeAll(5, Array("0123456789".utf8), path: "/d/f") }
        #expect(error == FileIOError(call: "write", path: "/d/f", errno: ENOSPC))
        #expect(kernel.written == Array("0123".utf8))
    }

    @Test func aWriteThatTakesNothingIsAnIOErrorNotALoop() {
        let kernel = ScriptedFileCalls()
        kernel.script("write", [0])
        let error = Self.failure { try kernel.layer.writeAll(5, [1], path: "p") }
        #expect(error == FileIOError(call: "write", path: "p", errno: EIO))
        #expect(kernel.calls == ["write"])
    }

    @Test func otherErrnosAreThrownOnceWithTheirCall() {
        let kernel = ScriptedFileCalls()
        kernel.script("pread", [-Int(EIO)])
        kernel.script("close", [-Int(EIO)])
        let io = kernel.layer
        var buffer = [UInt8](repeating: 0, count: 4)
        let readError = buffer.withUnsafeMutableBytes { buffer in
            Self.failure { _ = try io.read(3, into: buffer, at: 0, path: "p") }
        }
        #expect(readError == FileIOError(call: "pread", path: "p", errno: EIO))
        #expect(Self.failure { try io.close(3, path: "p") } == FileIOError(call: "close", path: "p", errno: EIO))
        #expect(kernel.calls == ["pread", "close"])
    }
}
