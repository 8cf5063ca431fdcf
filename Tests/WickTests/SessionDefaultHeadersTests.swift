// The session's header fields are added when sending, as URLSession adds its configuration's:
// a request (and `response.request`) keeps the fields the user built it with, while the wire,
// the cache's Vary matching and the curl description see the session's fields too.
import FoundationEssentials
import Testing
import Wick
import WickTestSupport

struct SessionDefaultHeadersTests {
    private static func session(_ change: (inout Session.Configuration) -> Void = { _ in }) -> Session {
        var configuration = Session.Configuration()
        configuration.proxy = .none
        configuration.headers = ["User-Agent": "wick-test/1", "X-Team": "core"]
        change(&configuration)
        return Session(configuration: configuration)
    }

    /// The head the server read on `connection`, as text.
    private static func head(_ server: FaultServer, connection: Int = 0) -> String {
        String(decoding: server.received(onConnection: connection), as: UTF8.self)
    }

    @Test func theRequestKeepsItsOwnFieldsAndTheWireGetsTheSessions() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok")])
        defer { server.stop() }
        let session = Self.session()
        let response = await session.request("http://127.0.0.1:\(server.port)/", headers: ["X-Own": "1"])
            .serializingString().response
        #expect(response.value == "ok")
        #expect(response.request?.headers == ["X-Own": "1"])
        let sent = Self.head(server)
        #expect(sent.contains("\r\nUser-Agent: wick-test/1\r\n") && sent.contains("\r\nX-Team: core\r\n"))
        #expect(sent.contains("\r\nX-Own: 1\r\n") && sent.contains("\r\nAccept-Encoding: "))
        await session.shutdown()
    }

    @Test func aFieldOfTheRequestReplacesTheSessionsByName() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok")])
        defer { server.stop() }
        let session = Self.session()
        _ = await session.request("http://127.0.0.1:\(server.port)/", headers: ["x-team": "edge"]).serializingData().response
        let sent = Self.head(server).lowercased()
        #expect(sent.contains("\r\nx-team: edge\r\n") && !sent.contains("x-team: core"))
        await session.shutdown()
    }

    @Test func theCurlDescriptionShowsTheSessionsFieldsAsAlamofiresDoes() async {
        let session = Self.session()
        let request = session.request("http://127.0.0.1:1/x", headers: ["X-Own": "1"])
        let described = request.cURLDescription()
        #expect(described.contains(#"-H "User-Agent: wick-test/1""#) && described.contains(#"-H "X-Own: 1""#))
        #expect(request.request?.headers == ["X-Own": "1"])
        request.cancel()
        await session.shutdown()
    }

    @Test func varyMatchesTheFieldsSentSoAVaryingResponseIsReused() async throws {
        // RFC 9111 §4.1: the stored response varies on Accept-Encoding, which only the session
        // adds; the second request sends the same value, so the cache answers it.
        let server = try FaultServer(steps: [
            .readRequest,
            .respond(body: "kept", headers: ["Cache-Control: max-age=60", "Vary: Accept-Encoding"]),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let session = Self.session { $0.responseCache = MemoryResponseCache() }
        let url = "http://127.0.0.1:\(server.port)/"
        let first = await session.request(url).serializingString().response
        let second = await session.request(url).serializingString().response
        #expect(first.value == "kept" && first.metrics?.responseSource == .network)
        #expect(second.value == "kept" && second.metrics?.responseSource == .cache)
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }
}
