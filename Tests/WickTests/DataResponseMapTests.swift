// DataResponse's map, tryMap, mapError, tryMapError, and its debug description.
import Foundation
import Testing
import Wick

private struct Boom: Error, Equatable {
    var code: Int
}

private func response(_ result: Result<Int, WickError>, body: String? = "42") -> DataResponse<Int, WickError> {
    DataResponse(
        request: HTTPRequest(
            method: .post, url: URL(string: "http://example.com/x")!, headers: ["B": "2", "a": "1"],
            body: Data("sent".utf8)),
        response: HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], version: .http1_1),
        data: body.map { Data($0.utf8) }, metrics: nil, serializationDuration: .milliseconds(3), result: result)
}

struct DataResponseMapTests {
    @Test func mapTransformsASuccessAndKeepsEverythingElse() {
        let mapped = response(.success(20)).map { "\($0 + 1)" }
        #expect(mapped.value == "21")
        #expect(mapped.request?.method == .post)
        #expect(mapped.response?.statusCode == 200)
        #expect(mapped.data == Data("42".utf8))
        #expect(mapped.serializationDuration == .milliseconds(3))
        let failed = response(.failure(.explicitlyCancelled)).map { _ in "never" }
        guard case .failure(.explicitlyCancelled) = failed.result else {
            Issue.record("\(failed.result)")
            return
        }
    }

    @Test func tryMapTurnsWhatTheClosureThrowsIntoTheFailure() {
        #expect(response(.success(2)).tryMap { $0 * 2 }.value == 4)
        let thrown = response(.success(2)).tryMap { (_: Int) throws -> Int in throw Boom(code: 7) }
        #expect(thrown.error as? Boom == Boom(code: 7))
        #expect(thrown.data == Data("42".utf8))
        let kept = response(.failure(.sessionInvalidated)).tryMap { $0 + 1 }
        guard case .sessionInvalidated? = kept.error as? WickError else {
            Issue.record("\(kept.result)")
            return
        }
    }

    @Test func mapErrorAndTryMapErrorTransformOnlyFailures() {
        let mapped = response(.failure(.sessionInvalidated)).mapError { _ in Boom(code: 1) }
        #expect(mapped.error == Boom(code: 1))
        #expect(response(.success(5)).mapError { _ in Boom(code: 1) }.value == 5)
        let replaced = response(.failure(.sessionInvalidated)).tryMapError { _ in Boom(code: 2) }
        #expect(replaced.error as? Boom == Boom(code: 2))
        let thrown = response(.failure(.sessionInvalidated)).tryMapError { (_: WickError) throws -> Boom in
            throw Boom(code: 3)
        }
        #expect(thrown.error as? Boom == Boom(code: 3))
        #expect(response(.success(6)).tryMapError { _ in Boom(code: 4) }.value == 6)
    }

    @Test func theDebugDescriptionShowsTheWholeExchange() {
        let text = response(.success(42)).debugDescription
        #expect(text.hasPrefix("[Request]: POST http://example.com/x\n    [Headers]:\n        a: 1\n        B: 2\n"))
        #expect(text.contains("    [Body]:\n        sent\n[Response]:\n    [Status Code]: 200\n"))
        #expect(text.contains("        Content-Type: text/plain\n    [Body]:\n        42\n"))
        #expect(
            text.contains("[Network Duration]: None\n[Serialization Duration]: 0.003 seconds\n[Result]: success(42)"))
        #expect(response(.success(1), body: nil).debugDescription.contains("[Response]:\n    [Status Code]: 200"))
        let binary = DataResponse<Int, WickError>(
            request: nil, response: nil, data: nil, metrics: nil, result: .failure(.sessionInvalidated))
        #expect(binary.debugDescription == "[Request]: None\n[Result]: failure(the session was shut down)")
        #expect(response(.success(1)).description == "success(1)")
    }

    @Test func aLargeOrBinaryBodyIsShownByItsSize() {
        let limit = String(repeating: "x", count: 100 * 1024)
        #expect(response(.success(1), body: limit).debugDescription.contains("[Body]:\n        xxx"))
        #expect(response(.success(1), body: limit + "x").debugDescription.contains("[Body]: 102401 bytes"))
        let binary = DataResponse<Int, WickError>(
            request: HTTPRequest(method: .get, url: URL(string: "http://h/")!, headers: [:], body: nil),
            response: HTTPResponse(status: .ok, headers: [:], version: .http1_1), data: Data([0xFF, 0xFE]),
            metrics: nil, result: .success(1))
        #expect(binary.debugDescription.contains("[Headers]: None\n    [Body]: 2 bytes"))
    }
}
