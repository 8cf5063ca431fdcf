// Session against httpbin: methods and bodies echoed, headers sent, statuses, empty bodies, timeouts.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionHTTPBinTests {
    @Test func getSendsTheDefaultAndTheRequestHeaders() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await session.request("\(base)/get?q=wick", headers: ["X-Demo": "wick"]).awaitResponseData()
        #expect(response.response?.status == .ok)
        #expect(response.response?.version == .http1_1)
        let json = try httpbinJSON(response.value)
        let headers = try #require(json["headers"] as? [String: String])
        #expect(headers["X-Demo"] == "wick")
        // The program, the system, then the library, as Alamofire's default is shaped.
        let agent = try #require(headers["User-Agent"])
        #expect(agent.hasPrefix("\(ProcessInfo.processInfo.processName) (Linux ") && agent.hasSuffix(") Wick/0.1"))
        #expect(headers["Accept-Language"] == "en;q=1.0")
        #expect(headers["Accept-Encoding"] == "gzip, deflate, br, zstd")
        #expect((json["args"] as? [String: String])?["q"] == "wick")
        #expect(response.request?.method == .get)
        #expect(response.metrics?.isReused == false)
        await session.shutdown()
    }

    @Test func aRequestHeaderReplacesTheDefaultOfTheSameName() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        var own = HTTPHeaders()
        own.add(name: "user-agent", value: "mine/1")
        own.add(name: "X-Twice", value: "a")
        own.add(name: "X-Twice", value: "b")
        let data = try await session.request("\(base)/headers", headers: own).serializingData().value
        let headers = try #require(try httpbinJSON(data)["headers"] as? [String: String])
        #expect(headers["User-Agent"] == "mine/1")
        #expect(headers["X-Twice"] == "a,b")
        #expect(headers["Accept-Language"] == "en;q=1.0")
        await session.shutdown()
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func bodiesAreEchoed(method: HTTPMethod) async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let path = method.rawValue.lowercased()
        let data = try await session.request(
            "\(base)/\(path)", method: method, headers: ["Content-Type": "text/plain"], body: Data("hello wick".utf8)
        ).serializingData().value
        let json = try httpbinJSON(data)
        #expect(json["data"] as? String == "hello wick")
        #expect((json["headers"] as? [String: String])?["Content-Length"] == "10")
        await session.shutdown()
    }

    @Test func aByteArrayBodyIsSentAsIs() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request("\(base)/post", method: .post, body: Array("bytes".utf8))
            .serializingData().value
        #expect(try httpbinJSON(data)["data"] as? String == "bytes")
        await session.shutdown()
    }

    @Test func anErrorStatusIsAResponseNotAFailure() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await session.request("\(base)/status/418").serializingData().response
        #expect(response.response?.statusCode == 418)
        #expect(response.error == nil)
        await session.shutdown()
    }

    @Test func anEmptyBodyFailsSerializationUnlessTheStatusOrMethodAllowsIt() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let empty200 = await session.request("\(base)/status/200").serializingData().result
        guard case .failure(.responseSerializationFailed(.inputDataNilOrZeroLength)) = empty200 else {
            Issue.record("expected an empty-body serialization failure, got \(empty200)")
            return
        }
        let noContent = try await session.request("\(base)/status/204").serializingData().value
        #expect(noContent.isEmpty)
        let head = try await session.request("\(base)/get", method: .head).serializingData().value
        #expect(head.isEmpty)
        let allowed = try await session.request("\(base)/status/200")
            .serializingData(emptyResponseCodes: [200]).value
        #expect(allowed.isEmpty)
        await session.shutdown()
    }

    @Test func theRequestTimeoutNamesThePhase() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = makeSession { $0.requestTimeout = .milliseconds(500) }
        // A warm keep-alive connection first, so that the budget goes to the response alone
        // even when a loaded machine connects slowly.
        _ = await session.request("\(base)/get").serializingData().result
        let started = ContinuousClock.now
        let result = await session.request("\(base)/delay/2").serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(.waitingForResponse, _))) = result else {
            Issue.record("expected a timeout in the exchange, got \(result)")
            return
        }
        #expect(ContinuousClock.now - started >= .milliseconds(500))
        #expect("\(try #require(result.failureValue))".contains("waiting for the response"))
        await session.shutdown()
    }
}

extension Result {
    /// The error, if this is a failure.
    var failureValue: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
