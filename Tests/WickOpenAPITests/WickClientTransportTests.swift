// WickClientTransport: OpenAPI's transport contract on a Session, against httpbin.
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import Testing
import Wick
import WickOpenAPI
import WickTestSupport

@Suite struct WickClientTransportTests {
    /// The JSON object httpbin echoed.
    static func echoed(_ body: HTTPBody?) async throws -> JSONValue {
        let data = try await Data(collecting: try #require(body), upTo: 1 << 20)
        return try JSONValue(parsing: data)
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func anOperationSendsItsMethodPathFieldsAndBody() async throws {
        let base = try #require(URL(string: "\(try TestEnvironment.httpbin().base)/anything/api"))
        let session = Session()
        defer { Task { await session.shutdown() } }
        let transport = WickClientTransport(session: session)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[HTTPField.Name("X-Operation")!] = "createPet"
        let request = HTTPTypes.HTTPRequest(
            method: .post, scheme: nil, authority: nil, path: "/pets?kind=cat", headerFields: fields)
        let (response, body) = try await transport.send(
            request, body: HTTPBody(#"{"name":"Tom"}"#), baseURL: base, operationID: "createPet")

        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        let echo = try await Self.echoed(body)
        #expect(echo["method"]?.stringValue == "POST")
        #expect(echo["url"]?.stringValue?.hasSuffix("/anything/api/pets?kind=cat") == true)
        #expect(echo["data"]?.stringValue == #"{"name":"Tom"}"#)
        #expect(echo["headers"]?["X-Operation"]?.stringValue == "createPet")
        #expect(echo["headers"]?["Content-Length"]?.stringValue == "14")
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func anErrorStatusIsAResponseNotAThrow() async throws {
        let base = try #require(URL(string: try TestEnvironment.httpbin().base))
        let session = Session()
        defer { Task { await session.shutdown() } }
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/status/404")
        let (response, body) = try await WickClientTransport(session: session).send(
            request, body: nil, baseURL: base, operationID: "missing")
        #expect(response.status == .notFound)
        #expect(body == nil)
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func cancellingTheCallingTaskCancelsTheRequest() async throws {
        let base = try #require(URL(string: try TestEnvironment.httpbin().base))
        let session = Session()
        defer { Task { await session.shutdown() } }
        let transport = WickClientTransport(session: session)
        // httpbin answers /delay/10 after 10 s; the call must end long before that.
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/delay/10")
        let started = ContinuousClock.now
        let call = Task { try await transport.send(request, body: nil, baseURL: base, operationID: "slow") }
        try await Task.sleep(for: .milliseconds(200))
        call.cancel()
        await #expect {
            _ = try await call.value
        } throws: { error in
            guard case WickError.explicitlyCancelled = error else { return false }
            return true
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func noResponseThrowsTheRequestsError() async throws {
        let refusing = try RefusingPort()
        var configuration = Session.Configuration()
        configuration.waitsForConnectivity = false
        let session = Session(configuration: configuration)
        defer { Task { await session.shutdown() } }
        let base = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")
        await #expect {
            _ = try await WickClientTransport(session: session).send(
                request, body: nil, baseURL: base, operationID: "x")
        } throws: { error in
            guard case WickError.sessionTaskFailed(let failure) = error else { return false }
            return failure.kind == .cannotConnectToHost
        }
    }

    @Test func aBodyPastTheLimitFailsBeforeAnythingIsSent() async throws {
        let session = Session()
        defer { Task { await session.shutdown() } }
        let transport = WickClientTransport(session: session, maximumRequestBodyBytes: 4)
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let request = HTTPTypes.HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/")
        let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
            continuation.yield(Array("abc".utf8)[...])
            continuation.yield(Array("def".utf8)[...])
            continuation.finish()
        }
        await #expect {
            _ = try await transport.send(
                request, body: HTTPBody(stream, length: .unknown), baseURL: base, operationID: "x")
        } throws: { error in
            guard case WickError.conversionFailed(.requestBodyTooLarge(limit: 4)) = error else { return false }
            return true
        }
    }

    @Test func aBaseURLThatIsNotHTTPIsRefused() async throws {
        let session = Session()
        defer { Task { await session.shutdown() } }
        let base = try #require(URL(string: "file:///tmp"))
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
        await #expect(throws: WickError.self) {
            _ = try await WickClientTransport(session: session).send(
                request, body: nil, baseURL: base, operationID: "x")
        }
    }
}
