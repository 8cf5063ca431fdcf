// Uploads against nginx (PUT into its dav location, read back): sizes, files, streams, memory.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct UploadNginxTests {
    /// A file of `count` deterministic bytes in a fresh temporary directory.
    static func file(_ count: Int) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-upload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("body.bin")
        try Data(TestPayload.bytes(count: count)).write(to: url)
        return url
    }

    /// What nginx stored under /upload/`name`.
    static func stored(_ nginx: TestEnvironment.Nginx, _ name: String) throws -> Data {
        try Data(contentsOf: nginx.documentRoot.appendingPathComponent("upload/\(name)"))
    }

    @Test(arguments: [0, 1, 1 << 20])
    func aFileIsUploadedWhole(count: Int) async throws {
        let nginx = try TestEnvironment.nginx()
        let source = try Self.file(count)
        defer { try? FileManager.default.removeItem(at: source.deletingLastPathComponent()) }
        let session = Session()
        let name = "file-\(count)-\(UUID()).bin"
        let progress = Shared<[TransferProgress]>([])
        let response = await session.upload(source, to: "\(nginx.httpBase)/upload/\(name)", method: .put)
            .uploadProgress { value in progress.withLock { $0.append(value) } }
            .serializingData(emptyResponseCodes: [201, 204]).response
        #expect(response.response?.statusCode == 201)
        #expect(try Self.stored(nginx, name) == Data(TestPayload.bytes(count: count)))
        session.responseQueue.sync {}
        let reports = progress.withLock { $0 }
        #expect(reports.map(\.completedBytes) == reports.map(\.completedBytes).sorted())
        if count > 0 { #expect(reports.last == TransferProgress(completedBytes: Int64(count), totalBytes: Int64(count))) }
        await session.shutdown()
    }

    @Test func aStreamOfUnknownLengthIsSentChunked() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let chunks = AsyncStream<Data> { continuation in
            for index in 0..<50 { continuation.yield(Data(repeating: UInt8(index), count: 10_000 + index)) }
            continuation.finish()
        }
        let expected = (0..<50).reduce(into: Data()) { $0.append(Data(repeating: UInt8($1), count: 10_000 + $1)) }
        let name = "stream-\(UUID()).bin"
        let response = await session.upload(stream: chunks, to: "\(nginx.httpBase)/upload/\(name)", method: .put)
            .serializingData(emptyResponseCodes: [201, 204]).response
        #expect(response.response?.statusCode == 201)
        #expect(try Self.stored(nginx, name) == expected)
        await session.shutdown()
    }

    @Test func aMissingFileFailsWithoutSending() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let missing = URL(fileURLWithPath: "/tmp/wick-no-such-file-\(UUID())")
        let response = await session.upload(missing, to: "\(nginx.httpBase)/upload/never.bin", method: .put)
            .serializingData().response
        guard case .sessionTaskFailed(.requestBodyFailed(let reason))? = response.error else {
            Issue.record("expected requestBodyFailed, got \(String(describing: response.error))")
            return
        }
        #expect(reason.contains("No such file"))
        #expect(response.response == nil)
        await session.shutdown()
    }
}

/// Run alone (`Scripts/test` runs FlatMemory* suites in a process of their own), so that the
/// process's resident memory is this test's.
@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct FlatMemoryUploadTests {
    /// 512 MiB from a sparse file: resident memory must not grow with the file. The bound is
    /// 64 MiB of growth, against 512 MiB a body held in memory would cost.
    @Test func aHalfGigabyteFileUploadsWithFlatMemory() async throws {
        let nginx = try TestEnvironment.nginx()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-upload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("large.bin")
        let size = 512 << 20
        #expect(FileManager.default.createFile(atPath: source.path, contents: nil))
        let handle = try FileHandle(forWritingTo: source)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()

        let session = Session()
        let name = "large-\(UUID()).bin"
        defer { try? FileManager.default.removeItem(atPath: nginx.documentRoot.appendingPathComponent("upload/\(name)").path) }
        let before = ResidentMemory.current()
        let peak = Shared(before)
        let response = await session.upload(source, to: "\(nginx.httpBase)/upload/\(name)", method: .put)
            .uploadProgress { _ in
                let now = ResidentMemory.current()
                peak.withLock { $0 = max($0, now) }
            }
            .serializingData(emptyResponseCodes: [201, 204]).response
        #expect(response.response?.statusCode == 201)
        let stored = try FileManager.default.attributesOfItem(atPath: nginx.documentRoot.appendingPathComponent("upload/\(name)").path)
        #expect((stored[.size] as? NSNumber)?.intValue == size)
        let growth = peak.withLock { $0 } - before
        #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MiB")
        await session.shutdown()
    }
}

/// The process's resident memory, from /proc/self/status.
enum ResidentMemory {
    static func current() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
