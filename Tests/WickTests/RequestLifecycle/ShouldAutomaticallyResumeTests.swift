// Alamofire's per-request `shouldAutomaticallyResume`: it overrides the session's
// `startRequestsImmediately` for handlers, tasks and sequences alike, on every kind of request.
import FoundationEssentials
import Testing
import Wick
import WickTestSupport

struct ShouldAutomaticallyResumeTests {
    /// How long a request that must not start is watched: nothing may reach the server.
    private static let quietPeriod = Duration.milliseconds(150)

    private static func okServer() throws -> FaultServer {
        try FaultServer(steps: [.readRequest, .respond(body: "ok")])
    }

    @Test func theDefaultFollowsTheSession() async throws {
        let session = Session(startRequestsImmediately: false)
        #expect(session.request("http://127.0.0.1:1/").shouldAutomaticallyResume == nil)
        #expect(session.request("http://127.0.0.1:1/", shouldAutomaticallyResume: true).shouldAutomaticallyResume == true)
        await session.shutdown()
    }

    @Test func falseKeepsAHandlerFromStartingTheRequest() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/", shouldAutomaticallyResume: false)
        let finished = Shared(false)
        request.responseData { _ in finished.withLock { $0 = true } }
        try await Task.sleep(for: Self.quietPeriod)
        #expect(request.state == .initialized && server.acceptedConnections == 0 && !finished.withLock { $0 })
        let response = await request.resume().awaitResponseData()
        #expect(response.response?.statusCode == 200 && response.data == Data("ok".utf8))
        await session.shutdown()
    }

    @Test func falseKeepsATaskFromStartingTheRequestUntilResume() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/", shouldAutomaticallyResume: false)
        let task = request.serializingString()
        try await Task.sleep(for: Self.quietPeriod)
        #expect(request.state == .initialized && server.acceptedConnections == 0)
        request.resume()
        #expect(try await task.value == "ok")
        await session.shutdown()
    }

    @Test func trueStartsTheRequestInASessionThatDoesNot() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let session = Session(startRequestsImmediately: false)
        let started = session.request("http://127.0.0.1:\(server.port)/", shouldAutomaticallyResume: true)
        #expect(try await started.serializingString().value == "ok")
        // Its sibling without the argument follows the session and waits.
        let waiting = session.request("http://127.0.0.1:\(server.port)/")
        waiting.responseData { _ in }
        try await Task.sleep(for: Self.quietPeriod)
        #expect(waiting.state == .initialized && server.acceptedConnections == 1)
        waiting.cancel()
        await session.shutdown()
    }

    @Test func aStreamSequenceWaitsForResume() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let session = Session()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/", shouldAutomaticallyResume: false)
        let chunks = request.streamingData()
        try await Task.sleep(for: Self.quietPeriod)
        #expect(request.state == .initialized && server.acceptedConnections == 0)
        request.resume()
        var body = Data()
        for try await chunk in chunks { body.append(chunk) }
        #expect(body == Data("ok".utf8))
        await session.shutdown()
    }

    @Test func aDownloadWaitsForResume() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let session = Session()
        let request = session.download("http://127.0.0.1:\(server.port)/", shouldAutomaticallyResume: false)
        let task = request.serializingData()
        try await Task.sleep(for: Self.quietPeriod)
        #expect(request.state == .initialized && server.acceptedConnections == 0)
        request.resume()
        #expect(try await task.value == Data("ok".utf8))
        await session.shutdown()
    }

    @Test func anUploadWaitsForResume() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let session = Session()
        let request = session.upload(
            Data("sent".utf8), to: "http://127.0.0.1:\(server.port)/", shouldAutomaticallyResume: false)
        let task = request.serializingString()
        try await Task.sleep(for: Self.quietPeriod)
        #expect(request.state == .initialized && server.acceptedConnections == 0)
        request.resume()
        #expect(try await task.value == "ok")
        #expect(String(decoding: server.received(onConnection: 0), as: UTF8.self).hasSuffix("\r\n\r\nsent"))
        await session.shutdown()
    }
}
