// responseJSON and serializingJSON against httpbin: objects, echoed arguments, empty bodies,
// and a body that is not JSON.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionJSONHTTPBinTests {
    @Test func serializingJSONReadsHTTPBinsDocument() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let json = try await session.request("\(base)/json").serializingJSON().value
        #expect(json["slideshow"]?["author"]?.stringValue == "Yours Truly")
        #expect(json["slideshow"]?["slides"]?[1]?["items"]?[0]?.stringValue == "Why <em>WonderWidgets</em> are great")
        await session.shutdown()
    }

    @Test func responseJSONSeesTheEchoedArgumentsAndHeaders() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await withCheckedContinuation { continuation in
            session.request("\(base)/get", parameters: ["q": "wick", "n": "1"], headers: ["X-Probe": "é"])
                .responseJSON { continuation.resume(returning: $0) }
        }
        let json = try #require(response.value)
        #expect(json["args"] == .object(["q": .string("wick"), "n": .string("1")]))
        #expect(json["headers"]?["X-Probe"] != nil)
        #expect(response.response?.status.rawValue == 200)
        await session.shutdown()
    }

    @Test func anEmptyBodyIsNullWhereTheStatusOrMethodAllowsIt() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        #expect(try await session.request("\(base)/status/204").serializingJSON().value == .null)
        #expect(try await session.request("\(base)/get", method: .head).serializingJSON().value == .null)
        let empty = await session.request("\(base)/status/200").serializingJSON().result
        guard case .failure(.responseSerializationFailed(.inputDataNilOrZeroLength)) = empty else {
            Issue.record("expected inputDataNilOrZeroLength, got \(empty)")
            return
        }
        await session.shutdown()
    }

    @Test func anHTMLBodyFailsNamingTheByte() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let result = await session.request("\(base)/html").serializingJSON().result
        guard case .failure(.responseSerializationFailed(.jsonSerializationFailed(let error))) = result else {
            Issue.record("expected jsonSerializationFailed, got \(result)")
            return
        }
        #expect(error == JSONParsingError(.unexpectedByte(UInt8(ascii: "<")), at: 0))
        #expect("\(WickError.responseSerializationFailed(reason: .jsonSerializationFailed(error: error)))".contains("byte 0"))
        await session.shutdown()
    }
}
