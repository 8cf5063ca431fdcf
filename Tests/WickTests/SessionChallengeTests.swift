// Challenge answers on the fault server: one answer, and one more after a stale Digest nonce.
import Foundation
import Testing
import Wick
import WickTestSupport

struct SessionChallengeTests {
    static func digest(nonce: String, stale: Bool = false) -> FaultStep {
        .respond(
            status: 401,
            headers: [
                #"WWW-Authenticate: Digest realm="wick", qop="auth", algorithm=SHA-256, nonce="\#(nonce)""#
                    + (stale ? ", stale=true" : "")
            ])
    }

    /// The `nonce` of each `Authorization` field the server received, in order.
    static func answeredNonces(_ server: FaultServer) -> [String] {
        let text = String(decoding: server.received(onConnection: 0), as: UTF8.self)
        return text.components(separatedBy: "\r\n").filter { $0.hasPrefix("Authorization: Digest ") }.compactMap { line in
            line.components(separatedBy: "nonce=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
    }

    @Test func aStaleNonceGetsOneMoreAnswerWithTheNewNonce() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, Self.digest(nonce: "first"), .readRequestHead, Self.digest(nonce: "second", stale: true),
            .readRequestHead, .respond(body: "in"),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/private").authenticate(username: "u", password: "p")
        #expect(try await request.serializingData().value == Data("in".utf8))
        #expect(Self.answeredNonces(server) == ["first", "second"])
        #expect(request.requests.count == 3)
        await session.shutdown()
    }

    @Test func aSecondRefusalThatIsNotStaleIsTheFinalResponse() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, Self.digest(nonce: "first"), .readRequestHead, Self.digest(nonce: "again"),
            .readRequestHead, .respond(body: "never"),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/private").authenticate(username: "u", password: "p")
        let response = await request.serializingData(emptyResponseCodes: [401]).response
        #expect(response.response?.statusCode == 401)
        #expect(Self.answeredNonces(server) == ["first"])
        await session.shutdown()
    }
}
