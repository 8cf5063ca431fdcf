// Downloads from scripted servers: cut connections and cancels that resume, ranges refused or wrong.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

struct DownloadFaultTests {
    /// 256 KiB of payload, split where the first connection stops.
    static let body = Array(DownloadPayload.oneMiB.prefix(256 << 10))
    static let cut = 100_000

    /// The answer to a resumed request for the bytes from `cut`.
    static func partialAnswer(entityTag: String = "\"wick-1\"") -> [FaultStep] {
        let rest = Array(body[cut...])
        return [
            .readRequestHead,
            .send(
                "HTTP/1.1 206 Partial Content\r\nContent-Length: \(rest.count)\r\nETag: \(entityTag)\r\n"
                    + "Content-Range: bytes \(cut)-\(body.count - 1)/\(body.count)\r\n\r\n"),
            .send(rest),
        ]
    }

    @Test func aCutConnectionLeavesResumeDataThatCompletesTheFileByteIdentical() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [
                    .readRequestHead, .send(okHead(length: Self.body.count)), .send(Array(Self.body[..<Self.cut])),
                    .close,
                ]
                : Self.partialAnswer()
        }
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let url = "http://127.0.0.1:\(server.port)/file"
        let first = session.download(url, to: { _, _ in (scratch.file("file"), []) })
        let failed = await first.serializingDownloadedFileURL().response
        guard case .failure(.sessionTaskFailed(.connectionLost)) = failed.result else {
            Issue.record("expected connectionLost, got \(failed.result)")
            return
        }
        let resume = try decodedResumeData(failed.resumeData)
        #expect(resume.bytesOnDisk == Int64(Self.cut) && resume.entityTag == "\"wick-1\"" && resume.url == url)
        #expect(first.resumeData == failed.resumeData && failed.fileURL == nil)
        #expect(FileManager.default.fileExists(atPath: resume.temporaryFilePath))

        let resumed = try await session.download(
            resumingWith: try #require(failed.resumeData),
            to: { _, _ in
                (scratch.file("file"), [])
            }
        ).validate().serializingDownloadedFileURL().value
        #expect(try Data(contentsOf: resumed) == Data(Self.body))
        let sent = server.received(onConnection: 1)
        #expect(headerValue("Range", in: sent) == "bytes=\(Self.cut)-")
        #expect(headerValue("If-Range", in: sent) == "\"wick-1\"")
        #expect(headerValue("Accept-Encoding", in: sent) == "identity")
        await session.shutdown()
    }

    /// A server that sends a head and `cut` bytes, then stalls.
    static func stallingServer(then next: [FaultStep] = []) throws -> FaultServer {
        try FaultServer { index in
            index == 0
                ? [
                    .readRequestHead, .send(okHead(length: body.count)), .send(Array(body[..<cut])),
                    .pause(.seconds(30)),
                ]
                : next
        }
    }

    /// Waits until the download has written `cut` bytes.
    static func waitForCut(_ request: DownloadRequest) async throws {
        #expect(try await waitUntil { (DownloadFile.size(atPath: request.temporaryURL.path) ?? 0) >= Int64(cut) })
    }

    @Test func cancellingWithResumeDataKeepsThePartialFileAndClosesTheConnection() async throws {
        let server = try Self.stallingServer(then: Self.partialAnswer())
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/file", to: { _, _ in (scratch.file("f"), []) })
        let task = request.serializingDownloadedFileURL()
        try await Self.waitForCut(request)
        task.cancel(producingResumeData: true)
        let response = await task.response
        guard case .failure(.explicitlyCancelled) = response.result else {
            Issue.record("expected explicitlyCancelled, got \(response.result)")
            return
        }
        #expect(try decodedResumeData(response.resumeData).bytesOnDisk == Int64(Self.cut))
        #expect(FileManager.default.fileExists(atPath: request.temporaryURL.path))
        #expect(OpenSockets.connected(toPort: server.port) == 0)

        let resumed = try await session.download(
            resumingWith: try #require(response.resumeData),
            to: { _, _ in
                (scratch.file("f"), [])
            }
        ).serializingDownloadedFileURL().value
        #expect(try Data(contentsOf: resumed) == Data(Self.body))
        #expect(server.acceptedConnections == 2)
        await session.shutdown()
    }

    @Test func cancellingWithoutResumeDataRemovesThePartialFile() async throws {
        let server = try Self.stallingServer()
        defer { server.stop() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/file")
        let handlerData = Shared<Data??>(nil)
        request.response { _ in }
        try await Self.waitForCut(request)
        request.cancel()
        await finished(request)
        #expect(request.state == .cancelled && !request.isFinished)
        #expect(request.resumeData == nil && request.fileURL == nil)
        #expect(!FileManager.default.fileExists(atPath: request.temporaryURL.path))
        #expect(OpenSockets.connected(toPort: server.port) == 0)
        // Cancelling a finished request changes nothing and hands over no resume data.
        request.cancel(byProducingResumeData: { data in handlerData.withLock { $0 = .some(data) } })
        #expect(try await waitUntil { handlerData.withLock { $0 } != nil })
        #expect(handlerData.withLock { $0 } == .some(nil))
        await session.shutdown()
    }

    @Test func cancelByProducingResumeDataHandsItOver() async throws {
        let server = try Self.stallingServer()
        defer { server.stop() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/file")
        let handed = Shared<Data??>(nil)
        request.response { _ in }
        try await Self.waitForCut(request)
        request.cancel(byProducingResumeData: { data in handed.withLock { $0 = .some(data) } })
        #expect(try await waitUntil { handed.withLock { $0 } != nil })
        let data = try #require(handed.withLock { $0 } ?? nil)
        let resume = try decodedResumeData(data)
        #expect(resume.bytesOnDisk == Int64(Self.cut))
        try? FileManager.default.removeItem(atPath: resume.temporaryFilePath)
        await session.shutdown()
    }

    @Test func aServerIgnoringTheRangeWith200StartsOver() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send(okHead(length: Self.body.count)), .send(Self.body),
        ])
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let partial = scratch.file("partial.download")
        try Data(repeating: 0xEE, count: Self.cut).write(to: partial)
        let session = Session()
        let response = await session.download(
            resumingWith: resumeData(
                url: "http://127.0.0.1:\(server.port)/file", temporaryFile: partial, bytesOnDisk: Int64(Self.cut),
                entityTag: "\"wick-1\""), to: { _, _ in (scratch.file("f"), []) }
        ).serializingDownloadedFileURL().response
        #expect(response.response?.statusCode == 200)
        #expect(try Data(contentsOf: try #require(response.fileURL)) == Data(Self.body))
        #expect(headerValue("Range", in: server.received(onConnection: 0)) == "bytes=\(Self.cut)-")
        await session.shutdown()
    }

    @Test(arguments: ["bytes 5-99/256000", nil])
    func a206ForAnotherRangeFailsAndKeepsThePartialFile(contentRange: String?) async throws {
        let range = contentRange.map { "Content-Range: \($0)\r\n" } ?? ""
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 206 Partial Content\r\nContent-Length: 95\r\n\(range)\r\n"),
            .send(Array(repeating: 0x41, count: 95)),
        ])
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let partial = scratch.file("partial.download")
        try Data(Self.body[..<Self.cut]).write(to: partial)
        let session = Session()
        let response = await session.download(
            resumingWith: resumeData(
                url: "http://127.0.0.1:\(server.port)/file", temporaryFile: partial, bytesOnDisk: Int64(Self.cut),
                entityTag: "\"wick-1\"")
        ).serializingDownloadedFileURL().response
        guard case .failure(.downloadFailed(.unexpectedContentRange(Int64(Self.cut), contentRange))) = response.result
        else {
            Issue.record("expected unexpectedContentRange, got \(response.result)")
            return
        }
        #expect(try Data(contentsOf: partial) == Data(Self.body[..<Self.cut]))
        #expect(try decodedResumeData(response.resumeData).bytesOnDisk == Int64(Self.cut))
        await session.shutdown()
    }

    @Test func aTemporaryFileThatCannotBeCreatedFailsTheDownload() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send(okHead(length: Self.body.count)), .send(Self.body),
        ])
        defer { server.stop() }
        let session = Session()
        let unwritable = URL(fileURLWithPath: "/proc/wick-no-such-directory/file.download")
        let response = await session.download(
            resumingWith: resumeData(
                url: "http://127.0.0.1:\(server.port)/file", temporaryFile: unwritable, bytesOnDisk: 10,
                entityTag: "\"wick-1\"")
        ).serializingDownloadedFileURL().response
        guard case .failure(.downloadFailed(.cannotCreateFile(let path, let errno))) = response.result else {
            Issue.record("expected cannotCreateFile, got \(response.result)")
            return
        }
        #expect(path == unwritable.path && errno != 0)
        #expect(response.resumeData == nil && response.fileURL == nil)
        await session.shutdown()
    }

    @Test func aWeakEntityTagAloneMakesNoResumeData() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send(okHead(length: Self.body.count, entityTag: "W/\"weak\"")),
            .send(Array(Self.body[..<Self.cut])), .close,
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/file")
        let response = await request.serializingDownloadedFileURL().response
        #expect(response.error != nil && response.resumeData == nil)
        #expect(!FileManager.default.fileExists(atPath: request.temporaryURL.path))
        await session.shutdown()
    }

    @Test func aRetriedFreshDownloadStartsTheFileOver() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [
                    .readRequestHead, .send(okHead(length: Self.body.count)), .send(Array(Self.body[..<Self.cut])),
                    .close,
                ]
                : [.readRequestHead, .send(okHead(length: Self.body.count)), .send(Self.body)]
        }
        defer { server.stop() }
        let session = Session()
        let retryOnce = Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retry : .doNotRetry)
        }
        let request = session.download("http://127.0.0.1:\(server.port)/file", interceptor: retryOnce)
        let url = try await request.serializingDownloadedFileURL().value
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(request.retryCount == 1)
        #expect(headerValue("Range", in: server.received(onConnection: 1)) == nil)
        #expect(try Data(contentsOf: url) == Data(Self.body))
        await session.shutdown()
    }

    @Test func bodiesOfFollowedRedirectsAndChallengesStayOutOfTheFile() async throws {
        let final = Array(Self.body[..<1_000])
        let server = try FaultServer(steps: [
            .readRequestHead, .respond(status: 302, body: "moved", headers: ["Location: /b"]),
            .readRequestHead, .respond(status: 401, body: "denied", headers: [#"WWW-Authenticate: Basic realm="w""#]),
            .readRequestHead, .send(okHead(length: final.count)), .send(final),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/a").authenticate(username: "u", password: "p")
        let url = try await request.serializingDownloadedFileURL().value
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try Data(contentsOf: url) == Data(final))
        #expect(request.requests.count == 3)
        await session.shutdown()
    }

    @Test func anUnfollowed401BodyIsTheFile() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .respond(status: 401, body: "denied", headers: [#"WWW-Authenticate: Basic realm="w""#]),
            .readRequestHead,
            .respond(status: 401, body: "denied again", headers: [#"WWW-Authenticate: Basic realm="w""#]),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/a").authenticate(username: "u", password: "p")
        let url = try await request.serializingDownloadedFileURL().value
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(request.response?.statusCode == 401)
        #expect(try Data(contentsOf: url) == Data("denied again".utf8))
        await session.shutdown()
    }

    @Test func aRetriedResumedDownloadContinuesFromTheBytesItHas() async throws {
        let second = 180_000
        let server = try FaultServer { index in
            index == 0
                ? [
                    .readRequestHead,
                    .send(
                        "HTTP/1.1 206 Partial Content\r\nContent-Length: \(Self.body.count - Self.cut)\r\n"
                            + "Content-Range: bytes \(Self.cut)-\(Self.body.count - 1)/\(Self.body.count)\r\n\r\n"),
                    .send(Array(Self.body[Self.cut..<second])), .close,
                ]
                : [
                    .readRequestHead,
                    .send(
                        "HTTP/1.1 206 Partial Content\r\nContent-Length: \(Self.body.count - second)\r\n"
                            + "Content-Range: bytes \(second)-\(Self.body.count - 1)/\(Self.body.count)\r\n\r\n"),
                    .send(Array(Self.body[second...])),
                ]
        }
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let partial = scratch.file("partial.download")
        try Data(Self.body[..<Self.cut]).write(to: partial)
        let session = Session()
        let retryOnce = Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retry : .doNotRetry)
        }
        let request = session.download(
            resumingWith: resumeData(
                url: "http://127.0.0.1:\(server.port)/file", temporaryFile: partial, bytesOnDisk: Int64(Self.cut),
                entityTag: "\"wick-1\""),
            interceptor: retryOnce, to: { _, _ in (scratch.file("f"), []) })
        let url = try await request.serializingDownloadedFileURL().value
        #expect(request.retryCount == 1)
        #expect(headerValue("Range", in: server.received(onConnection: 1)) == "bytes=\(second)-")
        #expect(try Data(contentsOf: url) == Data(Self.body))
        await session.shutdown()
    }
}
