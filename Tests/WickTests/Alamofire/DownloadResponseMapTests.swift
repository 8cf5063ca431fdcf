// DownloadResponse's map, tryMap, mapError and tryMapError, with Alamofire's semantics: only the
// result changes; request, response, file URL, resume data, metrics and timings are kept.
import Foundation
import Testing
import Wick

private struct Boom: Error, Equatable {
    var code: Int
}

private func download(_ result: Result<Int, WickError>) -> DownloadResponse<Int, WickError> {
    DownloadResponse(
        request: HTTPRequest(method: .get, url: URL(string: "http://example.com/file")!, headers: [:], body: nil),
        response: HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], version: .http1_1),
        fileURL: URL(fileURLWithPath: "/tmp/file"), resumeData: Data("resume".utf8), metrics: nil,
        serializationDuration: .milliseconds(2), result: result)
}

/// Checks that everything but the result is the original's.
private func expectKept<Success, Failure>(_ response: DownloadResponse<Success, Failure>) {
    #expect(response.request?.url.absoluteString == "http://example.com/file")
    #expect(response.response?.statusCode == 200)
    #expect(response.fileURL?.path == "/tmp/file")
    #expect(response.resumeData == Data("resume".utf8))
    #expect(response.serializationDuration == .milliseconds(2))
}

struct DownloadResponseMapTests {
    /// Alamofire: "returns a response wrapping the same failure" when the result is a failure.
    @Test func mapTransformsASuccessAndKeepsAFailure() {
        let mapped = download(.success(20)).map { "\($0 + 1)" }
        #expect(mapped.value == "21")
        expectKept(mapped)
        let failed = download(.failure(.explicitlyCancelled)).map { _ in "never" }
        #expect(failed.error?.isExplicitlyCancelledError == true)
        expectKept(failed)
    }

    /// Alamofire: what the closure throws becomes the failure; a failure is kept.
    @Test func tryMapTurnsWhatTheClosureThrowsIntoTheFailure() {
        #expect(download(.success(2)).tryMap { $0 * 2 }.value == 4)
        let thrown = download(.success(2)).tryMap { (_: Int) throws -> Int in throw Boom(code: 7) }
        #expect(thrown.error as? Boom == Boom(code: 7))
        expectKept(thrown)
        let kept = download(.failure(.sessionInvalidated)).tryMap { $0 + 1 }
        #expect((kept.error as? WickError)?.isSessionInvalidatedError == true)
    }

    @Test func mapErrorAndTryMapErrorTransformOnlyFailures() {
        let mapped = download(.failure(.sessionInvalidated)).mapError { _ in Boom(code: 1) }
        #expect(mapped.error == Boom(code: 1))
        expectKept(mapped)
        #expect(download(.success(5)).mapError { _ in Boom(code: 1) }.value == 5)
        let replaced = download(.failure(.sessionInvalidated)).tryMapError { _ in Boom(code: 2) }
        #expect(replaced.error as? Boom == Boom(code: 2))
        let thrown = download(.failure(.sessionInvalidated)).tryMapError { (_: WickError) throws -> Boom in
            throw Boom(code: 3)
        }
        #expect(thrown.error as? Boom == Boom(code: 3))
        expectKept(thrown)
        #expect(download(.success(6)).tryMapError { _ in Boom(code: 4) }.value == 6)
    }

    /// As Alamofire's documentation shows it: a downloaded response mapped to the file's size.
    @Test func aDownloadedResponseMapsLikeAlamofiresExample() {
        let possibleData: AFDownloadResponse<Data> = DownloadResponse(
            request: nil, response: nil, fileURL: nil, resumeData: nil, metrics: nil, result: .success(Data("abc".utf8)))
        let possibleInt = possibleData.map { $0.count }
        #expect(possibleInt.value == 3)
        #expect(possibleInt.serializationDuration == .zero)
    }
}
