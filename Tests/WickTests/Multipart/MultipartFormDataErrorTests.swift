// MultipartFormData's failures: each unusable part recorded at append, and each read and write failure while encoding.
import Foundation
import Testing

@testable import Wick

/// A file manager that answers what a test needs for checks a root test process cannot provoke.
final class ScriptedFileManager: FileManager, @unchecked Sendable {
    struct QueryFailure: Error {}

    enum Script { case unreadable, attributesThrow, noSize }
    let script: Script

    init(_ script: Script) {
        self.script = script
        super.init()
    }

    override func isReadableFile(atPath path: String) -> Bool {
        script == .unreadable ? false : super.isReadableFile(atPath: path)
    }

    override func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        switch script {
        case .unreadable: try super.attributesOfItem(atPath: path)
        case .attributesThrow: throw QueryFailure()
        case .noSize: [.type: FileAttributeType.typeRegular]
        }
    }
}

@Suite struct MultipartFormDataErrorTests {
    @Test func aURLThatIsNotAFileURLIsRefused() {
        let url = URL(string: "https://example.com/a.txt")!
        let form = MultipartFormData()
        form.append(url, withName: "f")
        guard case .bodyPartURLInvalid(let refused)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(refused == url)
        #expect(form.contentLength == 0)
    }

    @Test func aURLWithoutAFileNameIsRefused() {
        let form = MultipartFormData()
        form.append(URL(fileURLWithPath: "/"), withName: "f")
        guard case .bodyPartFilenameInvalid? = multipartFailure({ _ = try form.makeReader() }) else {
            Issue.record("another failure than expected"); return
        }
    }

    @Test func aMissingFileIsNotReachable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("missing.txt")
        let form = MultipartFormData()
        form.append(missing, withName: "f")
        guard case .bodyPartFileNotReachable(let url)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(url == missing)
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let form = MultipartFormData()
        form.append(directory.url, withName: "f", fileName: "d", mimeType: "x/y")
        guard case .bodyPartFileIsDirectory? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
    }

    @Test func anUnreadableFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("secret.txt", [1])
        let form = MultipartFormData(fileManager: ScriptedFileManager(.unreadable))
        form.append(file, withName: "f")
        guard case .bodyPartFileNotReadable(let url)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(url == file)
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file")) func aFileWithoutReadPermissionIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("secret.txt", [1])
        #expect(chmod(file.path, 0) == 0)
        let form = MultipartFormData()
        form.append(file, withName: "f")
        guard case .bodyPartFileNotReadable? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
    }

    @Test func aFIFOAndADeviceHaveNoSizeInAdvance() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.url.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [fifo, URL(fileURLWithPath: "/dev/null")] {
            let form = MultipartFormData()
            form.append(url, withName: "f")
            guard case .bodyPartFileSizeNotAvailable(let refused)? = multipartFailure({ _ = try form.encode() }) else {
                Issue.record("another failure than expected for \(url)")
                continue
            }
            #expect(refused == url)
        }
    }

    @Test func attributesWithoutASizeOrThatFailAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("a.txt", [1])
        let noSize = MultipartFormData(fileManager: ScriptedFileManager(.noSize))
        noSize.append(file, withName: "f")
        guard case .bodyPartFileSizeNotAvailable? = multipartFailure({ _ = try noSize.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        let failing = MultipartFormData(fileManager: ScriptedFileManager(.attributesThrow))
        failing.append(file, withName: "f")
        guard
            case .bodyPartFileSizeQueryFailedWithError(let url, let error)? = multipartFailure({
                _ = try failing.encode()
            })
        else { Issue.record("another failure than expected"); return }
        #expect(url == file)
        #expect(error is ScriptedFileManager.QueryFailure)
    }

    @Test(arguments: ["text/plain\r\nX-Injected: 1", "a/b\n", "a/b\0", "a/\u{7F}"])
    func aMIMETypeWithAControlCharacterIsRefused(mimeType: String) {
        let form = MultipartFormData()
        form.append(Data("x".utf8), withName: "x", mimeType: mimeType)
        guard case .bodyPartMimeTypeInvalid(let refused)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(refused == mimeType)
        #expect(MultipartBodyPart.isValidMIMEType("text/plain; charset=utf-8;\tq=1"))
    }

    @Test func theFirstProblemIsKeptAndTheGoodPartsStillCount() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("ok".utf8), withName: "ok")
        form.append(URL(string: "https://example.com/x")!, withName: "web")
        form.append(URL(fileURLWithPath: "/nonexistent/wick"), withName: "missing")
        #expect(
            form.encodedLength
                == UInt64(referenceBody([ExpectedPart(name: "ok", content: Array("ok".utf8))], boundary: "b").count))
        #expect(form.contentLength == 2)
        guard
            case .bodyPartURLInvalid? = multipartFailure({
                try form.writeEncodedData(to: URL(fileURLWithPath: "/nonexistent"))
            })
        else { Issue.record("another failure than expected"); return }
        #expect(
            "\(WickError.multipartEncodingFailed(reason: .bodyPartURLInvalid(url: URL(string: "https://e/x")!)))"
                == "multipart encoding failed: the body part URL is not a file URL: https://e/x")
    }

    @Test func aFileDeletedAfterAppendFailsWhenOpened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("gone.txt", [1, 2, 3])
        let form = MultipartFormData()
        form.append(file, withName: "f")
        try FileManager.default.removeItem(at: file)
        guard case .inputStreamReadFailed(let error)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(error as? MultipartIOError == .systemCallFailed(call: "open", path: file.path, errno: ENOENT))
    }

    @Test(arguments: [2, 5]) func aFileWhoseSizeChangedBeforeEncodingFails(newSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("a.txt", [1, 2, 3])
        let form = MultipartFormData()
        form.append(file, withName: "f")
        try Data(repeating: 9, count: newSize).write(to: file)
        guard case .inputStreamReadFailed(let error)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(error as? MultipartIOError == .fileSizeChanged(path: file.path, expected: 3, actual: UInt64(newSize)))
    }

    @Test func aFileTruncatedWhileBeingReadFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("a.bin", Array(repeating: 1, count: 1_000))
        let form = MultipartFormData(boundary: "b")
        form.append(file, withName: "f")
        let reader = try form.makeReader()
        let headLength = Int(form.encodedLength) - 1_000 - "\r\n--b--\r\n".utf8.count
        _ = try reader.read(upTo: headLength + 100)
        #expect(truncate(file.path, 400) == 0)
        #expect {
            _ = try reader.read(upTo: 10_000)
        } throws: { error in
            guard case WickError.multipartEncodingFailed(.inputStreamReadFailed(let cause)) = error else {
                return false
            }
            return cause as? MultipartIOError == .fileSizeChanged(path: file.path, expected: 1_000, actual: 400)
        }
    }

    @Test(arguments: [
        (9, UInt64(10), UInt64(9)), (11, UInt64(10), UInt64(11)), (0, UInt64(1), UInt64(0)), (1, UInt64(0), UInt64(1)),
    ])
    func aStreamThatDoesNotKeepItsLengthFails(actual: Int, declared: UInt64, produced: UInt64) {
        let form = MultipartFormData()
        form.append(.bytes(Array(repeating: 5, count: actual), length: declared, largestRead: 4), withName: "s")
        guard case .inputStreamReadFailed(let error)? = multipartFailure({ _ = try form.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(error as? MultipartIOError == .streamLengthMismatch(name: "s", expected: declared, produced: produced))
    }

    @Test func aStreamThatThrowsOrCannotBeMadeFailsWithItsError() {
        struct CannotOpen: Error {}
        let throwing = MultipartFormData()
        throwing.append(.bytes(Array(repeating: 5, count: 100), largestRead: 10, failAfter: 30), withName: "s")
        guard case .inputStreamReadFailed(let error)? = multipartFailure({ _ = try throwing.encode() }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(error is BytesStream.Failure)

        let unopenable = MultipartFormData()
        unopenable.append(MultipartStreamSource(length: 1) { throw CannotOpen() }, withName: "s")
        guard
            case .inputStreamReadFailed(let cause)? = multipartFailure({
                _ = try unopenable.makeReader().read(upTo: 100)
            })
        else { Issue.record("another failure than expected"); return }
        #expect(cause is CannotOpen)
    }

    @Test func writingRefusesANonFileURLAnExistingFileAndAMissingDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let form = MultipartFormData()
        form.append(Data("x".utf8), withName: "x")

        guard
            case .outputStreamURLInvalid? = multipartFailure({
                try form.writeEncodedData(to: URL(string: "https://e/x")!)
            })
        else { Issue.record("another failure than expected"); return }

        let existing = try directory.file("existing", [42])
        guard
            case .outputStreamFileAlreadyExists(let url)? = multipartFailure({ try form.writeEncodedData(to: existing) }
            )
        else { Issue.record("another failure than expected"); return }
        #expect(url == existing)
        #expect(try Data(contentsOf: existing) == Data([42]))

        let nowhere = directory.url.appendingPathComponent("no/such/dir/body")
        guard
            case .outputStreamCreationFailed(_, let error)? = multipartFailure({
                try form.writeEncodedData(to: nowhere)
            })
        else { Issue.record("another failure than expected"); return }
        #expect(error == .systemCallFailed(call: "open", path: nowhere.path, errno: ENOENT))
    }

    @Test func aWriteFailureIsReportedWithItsErrno() throws {
        let form = MultipartFormData()
        form.append(Data(repeating: 1, count: 100), withName: "x")
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        guard
            case .outputStreamWriteFailed(let error)? = multipartFailure({
                try MultipartFormData.write(form.makeReader(), to: fd, path: "/dev/full")
            })
        else { Issue.record("another failure than expected"); return }
        #expect(error == .systemCallFailed(call: "write", path: "/dev/full", errno: ENOSPC))
        // Whether `write` closed `fd` is not checked here: other tests in this process open
        // descriptors concurrently, so the number may already belong to someone else.
    }

    @Test func aReadFailureWhileWritingRemovesThePartialFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let form = MultipartFormData()
        form.append(Data(repeating: 1, count: 200_000), withName: "first")
        form.append(.bytes(Array(repeating: 2, count: 10), length: 20), withName: "short")
        let output = directory.url.appendingPathComponent("body")
        guard case .inputStreamReadFailed? = multipartFailure({ try form.writeEncodedData(to: output) }) else {
            Issue.record("another failure than expected"); return
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
