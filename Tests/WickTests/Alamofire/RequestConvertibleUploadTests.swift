// Uploads and downloads made with a whole request (URLRequestConvertible: a router or an
// HTTPRequest), written as Alamofire's documentation shows them, against httpbin.
import Foundation
import Testing
import Wick
import WickTestSupport

/// A router as ports write them: each case builds its whole request.
private enum Router: URLRequestConvertible {
    case put(base: String)
    case anything(base: String)

    func asURLRequest() throws -> HTTPRequest {
        switch self {
        case .put(let base):
            try HTTPRequest(url: "\(base)/put", method: .put, headers: ["X-Router": "put"])
        case .anything(let base):
            try HTTPRequest(url: "\(base)/anything", method: .post, headers: ["X-Router": "anything"])
        }
    }
}

/// What httpbin echoes of an upload.
private struct Echo: Decodable, Sendable {
    let data: String
    let headers: [String: String]
    let form: [String: String]?
    let method: String?
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct RequestConvertibleUploadTests {
    /// Alamofire: `AF.upload(data, with: urlRequest)`.
    @Test func dataIsUploadedWithTheRoutersMethodAndHeaders() async throws {
        let base = try TestEnvironment.httpbin().base
        let echo = try await AF.upload(Data("routed data".utf8), with: Router.put(base: base))
            .serializingDecodable(Echo.self).value
        #expect(echo.data == "routed data")
        #expect(echo.headers["X-Router"] == "put")
        #expect(echo.headers["Content-Length"] == "11")
    }

    /// Alamofire: `AF.upload(fileURL, with: urlRequest)`; the request's own body is replaced.
    @Test func aFileIsUploadedWithAnHTTPRequest() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.file("upload.txt")
        try Data("from a file".utf8).write(to: file)
        var request = try HTTPRequest(url: "\(base)/post", method: .post, headers: ["Content-Type": "text/plain"])
        request.body = Data("not sent".utf8)
        let progress = Shared<TransferProgress?>(nil)
        let echo = try await AF.upload(file, with: request)
            .uploadProgress { report in progress.withLock { $0 = report } }
            .serializingDecodable(Echo.self).value
        #expect(echo.data == "from a file")
        #expect(try await waitUntil { progress.withLock { $0?.completedBytes } == 11 })
    }

    /// Alamofire: `AF.upload(multipartFormData: { $0.append(...) }, with: urlRequest)`.
    @Test func aMultipartFormIsUploadedWithTheRoutersRequest() async throws {
        let base = try TestEnvironment.httpbin().base
        let echo = try await AF.upload(
            multipartFormData: { form in
                form.append(Data("one".utf8), withName: "one")
                form.append(Data("two".utf8), withName: "two")
            }, with: Router.anything(base: base)
        ).serializingDecodable(Echo.self).value
        #expect(echo.form == ["one": "one", "two": "two"])
        #expect(echo.method == "POST")
        #expect(echo.headers["X-Router"] == "anything")
        #expect(echo.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    /// A stream of chunks, uploaded with a router's request.
    @Test func aStreamIsUploadedWithTheRoutersRequest() async throws {
        let base = try TestEnvironment.httpbin().base
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("chunk one, ".utf8))
            continuation.yield(Data("chunk two".utf8))
            continuation.finish()
        }
        let echo = try await AF.upload(stream: chunks, with: Router.put(base: base))
            .serializingDecodable(Echo.self).value
        #expect(echo.data == "chunk one, chunk two")
        #expect(echo.headers["X-Router"] == "put")
    }

    /// A router that throws fails the upload as it fails a request: nothing is sent.
    @Test func aRouterThatThrowsFailsTheUpload() async throws {
        struct Broken: URLRequestConvertible {
            func asURLRequest() throws -> HTTPRequest { throw WickError.invalidURL(url: "x", reason: "broken") }
        }
        let result = await AF.upload(Data("x".utf8), with: Broken()).serializingData().result
        guard case .failure(.invalidURL(url: "x", _)) = result else {
            Issue.record("expected invalidURL, got \(result)")
            return
        }
    }

    /// Alamofire: `AF.download(urlRequest, to: destination)`.
    @Test func aDownloadTakesAWholeRequest() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let request = try HTTPRequest(url: "\(base)/headers", method: .get, headers: ["X-Download": "yes"])
        let text = try await AF.download(request, to: { _, _ in (scratch.file("headers.json"), []) })
            .serializingString().value
        #expect(text.contains("\"X-Download\": \"yes\""))
    }
}
