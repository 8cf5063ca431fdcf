// Downloads from nginx: whole files, progress, destinations, validation, and resuming with Range.
import Foundation
import Synchronization
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct DownloadNginxTests {
    @Test func tenMiBArriveByteIdenticalAndTheTemporaryFileIsGone() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let target = scratch.file("10m")
        let request = session.download("\(nginx.httpBase)/bytes/10m", to: { _, _ in (target, []) })
        let response = await request.serializingDownloadedFileURL().response
        #expect(try response.result.get() == target)
        #expect(response.response?.statusCode == 200 && response.resumeData == nil)
        #expect(request.fileURL == target)
        #expect(try Data(contentsOf: target) == DownloadPayload.tenMiB)
        #expect(!FileManager.default.fileExists(atPath: request.temporaryURL.path))
        await session.shutdown()
    }

    @Test func withoutADestinationTheFileStaysInWicksTemporaryDirectory() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let url = try await session.download("\(nginx.httpBase)/bytes/1m").serializingDownloadedFileURL().value
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(
            url.deletingLastPathComponent().standardizedFileURL.path
                == DownloadRequest.temporaryDirectory.standardizedFileURL.path)
        #expect(try Data(contentsOf: url) == DownloadPayload.oneMiB)
        await session.shutdown()
    }

    @Test func progressIsMonotonicAndEndsAtTheTotal() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let reports = Shared<[TransferProgress]>([])
        let queue = DispatchQueue(label: "progress")
        let request = session.download("\(nginx.httpBase)/bytes/1m", to: { _, _ in (scratch.file("1m"), []) })
            .downloadProgress(queue: queue) { progress in reports.withLock { $0.append(progress) } }
        _ = try await request.serializingDownloadedFileURL().value
        queue.sync {}
        let seen = reports.withLock { $0 }
        #expect(seen.count >= 2)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        #expect(seen.allSatisfy { $0.totalBytes == 1 << 20 })
        #expect(seen.last == TransferProgress(completedBytes: 1 << 20, totalBytes: 1 << 20))
        #expect(seen.last?.fractionCompleted == 1)
        await session.shutdown()
    }

    @Test func intermediateDirectoriesAreCreatedWhenAsked() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let deep = scratch.file("a/b/c/1k")
        let missing = await session.download("\(nginx.httpBase)/bytes/1k", to: { _, _ in (deep, []) })
            .serializingDownloadedFileURL().result
        guard case .failure(.downloadFailed(.cannotMoveFile)) = missing else {
            Issue.record("expected cannotMoveFile without the directories, got \(missing)")
            return
        }
        let made = try await session.download(
            "\(nginx.httpBase)/bytes/1k",
            to: { _, _ in
                (deep, .createIntermediateDirectories)
            }
        ).serializingDownloadedFileURL().value
        #expect(made == deep)
        #expect(try Data(contentsOf: deep).count == 1_024)
        await session.shutdown()
    }

    @Test func anExistingDestinationFailsUnlessThePreviousFileIsRemoved() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let target = scratch.file("existing")
        try Data("old".utf8).write(to: target)
        let refused = session.download("\(nginx.httpBase)/bytes/1k", to: { _, _ in (target, []) })
        let result = await refused.serializingDownloadedFileURL().result
        guard case .failure(.downloadFailed(.destinationExists(let path))) = result else {
            Issue.record("expected destinationExists, got \(result)")
            return
        }
        #expect(path == target.standardizedFileURL.path)
        #expect(try Data(contentsOf: target) == Data("old".utf8))
        #expect(!FileManager.default.fileExists(atPath: refused.temporaryURL.path))
        let replaced = try await session.download(
            "\(nginx.httpBase)/bytes/1k", to: { _, _ in (target, .removePreviousFile) }
        )
        .serializingDownloadedFileURL().value
        #expect(try Data(contentsOf: replaced) == DownloadPayload.oneMiB.prefix(1_024))
        await session.shutdown()
    }

    @Test func theSuggestedDestinationIsNamedAfterTheURL() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = try await session.download(
            "\(nginx.httpBase)/bytes/64k", to: DownloadRequest.suggestedDownloadDestination(for: scratch.url)
        ).serializingDownloadedFileURL().value
        #expect(url == scratch.file("64k"))
        #expect(try Data(contentsOf: url).count == 65_536)
        await session.shutdown()
    }

    @Test func contentTypeValidationChecksTheDownloadAgainstAcceptAndTheGivenTypes() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = "\(nginx.httpBase)/bytes/1k"
        let head = try await session.request(url, method: .head).serializingData().response
        let served = try #require(head.response?.headers["Content-Type"])
        let family = String(served.prefix { $0 != "/" }) + "/*"
        let accepted = try await session.download(url, to: { _, _ in (scratch.file("a"), [.removePreviousFile]) })
            .validate(contentType: [family]).serializingDownloadedFileURL().value
        #expect(accepted == scratch.file("a"))
        let refused = await session.download(url, to: { _, _ in (scratch.file("b"), [.removePreviousFile]) })
            .validate(contentType: ["application/x-never"]).serializingDownloadedFileURL().result
        guard case .failure(.responseValidationFailed(.unacceptableContentType(["application/x-never"], _))) = refused else {
            Issue.record("expected the content type refused, got \(refused)")
            return
        }
        // validate() checks the type against the request's Accept, as Alamofire's does.
        let accepting = await session.download(
            url, headers: ["Accept": "text/x-never"], to: { _, _ in (scratch.file("c"), [.removePreviousFile]) }
        ).validate().serializingDownloadedFileURL().result
        guard case .failure(.responseValidationFailed(.unacceptableContentType)) = accepting else {
            Issue.record("expected Accept to refuse the type, got \(accepting)")
            return
        }
        await session.shutdown()
    }

    @Test func responseDataReadsTheFileAndValidateRefusesA404() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let data = try await session.download("\(nginx.httpBase)/bytes/64k", to: { _, _ in (scratch.file("64k"), []) })
            .validate().serializingData().value
        #expect(data == DownloadPayload.oneMiB.prefix(65_536))
        let missing = session.download("\(nginx.httpBase)/bytes/none", to: { _, _ in (scratch.file("none"), []) })
            .validate()
        let response = await missing.serializingData().response
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(404))) = response.result else {
            Issue.record("expected a 404 refused, got \(response.result)")
            return
        }
        // As in Alamofire, the body of a refused response still reaches the destination.
        #expect(response.fileURL == scratch.file("none"))
        let seenFile = Shared<URL?>(nil)
        let custom = await session.download("\(nginx.httpBase)/bytes/1k", to: { _, _ in (scratch.file("1k"), []) })
            .validate { _, _, url in
                seenFile.withLock { $0 = url }
                return (try? Data(contentsOf: url!))?.count == 1_024 ? .success(()) : .failure(TestFailure.wrongSize)
            }.serializingDownloadedFileURL().result
        #expect(try custom.get() == scratch.file("1k"))
        #expect(seenFile.withLock { $0 }?.pathExtension == "download")
        await session.shutdown()
    }

    @Test func callbackHandlersSeeTheFileAndAFileGoneBeforeReadingFails() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let target = scratch.file("1k")
        let request = session.download("\(nginx.httpBase)/bytes/1k", to: { _, _ in (target, []) })
        let reader = DispatchQueue(label: "reader")
        reader.suspend()
        let read = Shared<DownloadResponse<Data, WickError>?>(nil)
        request.responseData(queue: reader) { response in read.withLock { $0 = response } }
        let response = await request.awaitResponse()
        #expect(response.value == .some(target) && response.fileURL == target)
        let url = await withCheckedContinuation { continuation in
            request.responseURL { continuation.resume(returning: $0.value) }
        }
        #expect(url == target)
        try FileManager.default.removeItem(at: target)
        reader.resume()
        #expect(try await waitUntil { read.withLock { $0 } != nil })
        guard
            case .failure(.responseSerializationFailed(.inputFileReadFailed(let path)))? = read.withLock({ $0?.result })
        else {
            Issue.record("expected inputFileReadFailed, got \(String(describing: read.withLock { $0?.result }))")
            return
        }
        #expect(path == target.path)
        await session.shutdown()
    }

    @Test func anEmptyFileIsAnErrorForResponseDataUnlessTheStatusAllowsIt() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let refused = await session.download("\(nginx.httpBase)/bytes/0", to: { _, _ in (scratch.file("a"), []) })
            .serializingData().result
        guard case .failure(.responseSerializationFailed(.inputDataNilOrZeroLength)) = refused else {
            Issue.record("expected inputDataNilOrZeroLength, got \(refused)")
            return
        }
        let allowed = try await session.download("\(nginx.httpBase)/bytes/0", to: { _, _ in (scratch.file("b"), []) })
            .serializingData(emptyResponseCodes: [200]).value
        #expect(allowed.isEmpty)
        await session.shutdown()
    }

    // MARK: - Resuming against nginx (Range, If-Range, ETag on static files)

    /// nginx's `ETag` for `path`.
    private func entityTag(_ session: Session, _ url: String) async throws -> String {
        let head = try #require(await session.request(url, method: .head).serializingData().response.response)
        return try #require(head.headers.value(for: "ETag"))
    }

    @Test func resumingFromAPartialFileAppendsA206() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = "\(nginx.httpBase)/bytes/10m"
        let tag = try await entityTag(session, url)
        let partial = scratch.file("partial.download")
        try DownloadPayload.tenMiB.prefix(3 << 20).write(to: partial)
        let reports = Shared<[TransferProgress]>([])
        let queue = DispatchQueue(label: "progress")
        let request = session.download(
            resumingWith: resumeData(url: url, temporaryFile: partial, bytesOnDisk: 3 << 20, entityTag: tag),
            to: { _, _ in (scratch.file("10m"), []) }
        )
        .downloadProgress(queue: queue) { progress in reports.withLock { $0.append(progress) } }
        .validate()
        let response = await request.serializingDownloadedFileURL().response
        #expect(try response.result.get() == scratch.file("10m"))
        #expect(response.response?.statusCode == 206)
        #expect(request.request?.headers.value(for: "Range") == "bytes=3145728-")
        #expect(request.request?.headers.value(for: "If-Range") == tag)
        #expect(try Data(contentsOf: scratch.file("10m")) == DownloadPayload.tenMiB)
        queue.sync {}
        let seen = reports.withLock { $0 }
        #expect(seen.first?.completedBytes == 3 << 20)
        #expect(seen.last == TransferProgress(completedBytes: 10 << 20, totalBytes: 10 << 20))
        await session.shutdown()
    }

    @Test func aChangedEntityTagStartsOver() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let partial = scratch.file("partial.download")
        try Data(repeating: 0xEE, count: 2 << 20).write(to: partial)
        let response = await session.download(
            resumingWith: resumeData(
                url: "\(nginx.httpBase)/bytes/10m", temporaryFile: partial, bytesOnDisk: 2 << 20,
                entityTag: "\"not-the-tag\""), to: { _, _ in (scratch.file("10m"), []) }
        ).validate().serializingDownloadedFileURL().response
        #expect(response.response?.statusCode == 200)
        #expect(response.request?.headers.value(for: "If-Range") == "\"not-the-tag\"")
        #expect(try Data(contentsOf: scratch.file("10m")) == DownloadPayload.tenMiB)
        await session.shutdown()
    }

    @Test func a416NamingTheFilesLengthMeansTheFileIsComplete() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = "\(nginx.httpBase)/bytes/1m"
        let partial = scratch.file("whole.download")
        try DownloadPayload.oneMiB.write(to: partial)
        let request = session.download(
            resumingWith: resumeData(
                url: url, temporaryFile: partial, bytesOnDisk: 1 << 20, entityTag: try await entityTag(session, url)),
            to: { _, _ in (scratch.file("1m"), []) }
        ).validate()
        let response = await request.serializingDownloadedFileURL().response
        #expect(try response.result.get() == scratch.file("1m"))
        #expect(response.response?.statusCode == 416 && request.retryCount == 0)
        #expect(try Data(contentsOf: scratch.file("1m")) == DownloadPayload.oneMiB)
        await session.shutdown()
    }

    @Test func a416NamingAnotherLengthStartsOverOnceWithoutARange() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = "\(nginx.httpBase)/bytes/1m"
        let partial = scratch.file("longer.download")
        try Data(repeating: 0xEE, count: (1 << 20) + 5).write(to: partial)
        let request = session.download(
            resumingWith: resumeData(
                url: url, temporaryFile: partial, bytesOnDisk: (1 << 20) + 5,
                entityTag: try await entityTag(session, url)), to: { _, _ in (scratch.file("1m"), []) }
        ).validate()
        let response = await request.serializingDownloadedFileURL().response
        #expect(try response.result.get() == scratch.file("1m"))
        #expect(response.response?.statusCode == 200 && request.retryCount == 1)
        let sent = request.requests
        #expect(sent.count == 2)
        #expect(sent.first?.headers.value(for: "Range") == "bytes=1048581-")
        #expect(sent.last?.headers.value(for: "Range") == nil && sent.last?.headers.value(for: "If-Range") == nil)
        #expect(try Data(contentsOf: scratch.file("1m")) == DownloadPayload.oneMiB)
        await session.shutdown()
    }

    @Test(arguments: [false, true])
    func resumeDataWhoseFileIsGoneOrShorterStartsOver(fileExists: Bool) async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = "\(nginx.httpBase)/bytes/1m"
        let partial = scratch.file("partial.download")
        if fileExists { try DownloadPayload.oneMiB.prefix(1_000).write(to: partial) }
        let request = session.download(
            resumingWith: resumeData(
                url: url, temporaryFile: partial, bytesOnDisk: 4_000, entityTag: try await entityTag(session, url)),
            to: { _, _ in (scratch.file("1m"), []) })
        let response = await request.serializingDownloadedFileURL().response
        #expect(response.response?.statusCode == 200)
        #expect(request.request?.headers.value(for: "Range") == nil)
        #expect(try Data(contentsOf: scratch.file("1m")) == DownloadPayload.oneMiB)
        await session.shutdown()
    }

    @Test func invalidResumeDataFailsWithoutSending() async throws {
        let session = Session()
        for data in [Data("not json".utf8), Data(#"{"version":2}"#.utf8)] {
            let request = session.download(resumingWith: data)
            let result = await request.serializingDownloadedFileURL().result
            guard case .failure(.downloadFailed(.invalidResumeData)) = result else {
                Issue.record("expected invalidResumeData, got \(result)")
                continue
            }
            #expect(request.requests.isEmpty)
        }
        await session.shutdown()
    }
}

/// An error of the tests' own.
enum TestFailure: Error {
    case wrongSize
}
