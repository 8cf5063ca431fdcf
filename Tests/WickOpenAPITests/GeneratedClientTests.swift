// The client swift-openapi-generator made from OpenAPI/openapi.yaml (committed in Generated/),
// run on WickClientTransport against httpbin.
import FoundationEssentials
import OpenAPIRuntime
import Testing
import Wick
import WickOpenAPI
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct GeneratedClientTests {
    /// A generated client on a new session, with the session to shut down.
    static func client() throws -> (Client, Session) {
        let session = Session()
        let url = try #require(URL(string: try TestEnvironment.httpbin().base))
        return (Client(serverURL: url, transport: WickClientTransport(session: session)), session)
    }

    @Test func aQueryParameterGoesOutAndTheJSONComesBackDecoded() async throws {
        let (client, session) = try Self.client()
        defer { Task { await session.shutdown() } }
        let output = try await client.echoQuery(query: .init(greeting: "hello wick"))
        let echo = try output.ok.body.json
        #expect(echo.args.additionalProperties["greeting"] == "hello wick")
        #expect(echo.url.hasSuffix("/get?greeting=hello%20wick"))
    }

    @Test func aJSONBodyIsEncodedSentAndEchoed() async throws {
        let (client, session) = try Self.client()
        defer { Task { await session.shutdown() } }
        let output = try await client.createPet(body: .json(.init(name: "Tom", tag: "cat")))
        let echo = try output.ok.body.json
        #expect(echo.method == "POST")
        #expect(echo.json == .init(name: "Tom", tag: "cat"))
    }

    @Test func aStatusTheDocumentLeavesToDefaultIsReturnedAsSuch() async throws {
        let (client, session) = try Self.client()
        defer { Task { await session.shutdown() } }
        guard case .default(let status, _) = try await client.getStatus(path: .init(code: 418)) else {
            Issue.record("expected the default response")
            return
        }
        #expect(status == 418)
        guard case .ok = try await client.getStatus(path: .init(code: 200)) else {
            Issue.record("expected 200")
            return
        }
    }
}
