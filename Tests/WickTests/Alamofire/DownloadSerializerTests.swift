// A download's file through the data serializers (string, Decodable, JSON, custom), written as
// Alamofire's documentation shows them, against httpbin; and the download serializer protocol.
import Foundation
import Testing
import Wick
import WickTestSupport

/// The part of httpbin's `/get` answer the examples decode (Alamofire's `HTTPBinResponse`).
private struct HTTPBinResponse: Decodable, Sendable {
    let url: String
    let headers: [String: String]
}

/// A custom download serializer, as a port would write one: the file's size.
private struct FileSizeSerializer: DownloadResponseSerializerProtocol {
    func serializeDownload(request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, error: WickError?) throws
        -> Int
    {
        if let error { throw error }
        return try Data(contentsOf: try #require(fileURL)).count
    }
}

private struct Unreadable: Error {}

/// A serializer that always fails with an error that is not a WickError.
private struct FailingSerializer: DownloadResponseSerializerProtocol {
    func serializeDownload(request: HTTPRequest?, response: HTTPResponse?, fileURL: URL?, error: WickError?) throws
        -> Int
    {
        throw Unreadable()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct DownloadSerializerHTTPBinTests {
    /// A destination in `scratch`, named `name`.
    private func into(_ scratch: ScratchDirectory, _ name: String) -> DownloadRequest.Destination {
        { _, _ in (scratch.file(name), [.removePreviousFile]) }
    }

    /// Alamofire: `AF.download("https://httpbin.org/get").responseDecodable(of: HTTPBinResponse.self) { ... }`.
    @Test func responseDecodableDecodesTheDownloadedFile() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let response = await withCheckedContinuation { continuation in
            AF.download("\(base)/get", to: into(scratch, "get.json"))
                .responseDecodable(of: HTTPBinResponse.self) { response in continuation.resume(returning: response) }
        }
        let value = try response.result.get()
        #expect(value.url == "\(base)/get")
        #expect(value.headers["User-Agent"] != nil)
        #expect(response.fileURL == scratch.file("get.json"))
        #expect(response.response?.statusCode == 200)
    }

    /// Alamofire: `AF.download(url).responseString { response in debugPrint(response) }`.
    @Test func responseStringAndResponseJSONReadTheFile() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let text = await withCheckedContinuation { continuation in
            session.download("\(base)/encoding/utf8", to: into(scratch, "utf8.html"))
                .responseString { continuation.resume(returning: $0) }
        }
        #expect(try text.result.get().contains("∮ E⋅da = Q"))
        let json = await withCheckedContinuation { continuation in
            session.download("\(base)/json", to: into(scratch, "slides.json"))
                .responseJSON { continuation.resume(returning: $0) }
        }
        #expect(try json.result.get()["slideshow"]?["title"]?.stringValue == "Sample Slide Show")
        await session.shutdown()
    }

    /// Alamofire: `let value = try await AF.download(url).serializingDecodable(HTTPBinResponse.self).value`.
    @Test func theAsyncFormsSerializeTheFile() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let decoded = try await session.download("\(base)/get", to: into(scratch, "a"))
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(decoded.url == "\(base)/get")
        let text = try await session.download("\(base)/robots.txt", to: into(scratch, "b")).serializingString().value
        #expect(text.contains("Disallow: /deny"))
        let json = try await session.download("\(base)/get?q=1", to: into(scratch, "c")).serializingJSON().value
        #expect(json["args"]?["q"]?.stringValue == "1")
        let viaSerializer = try await session.download("\(base)/get", to: into(scratch, "d"))
            .serializingDownload(using: .decodable(of: HTTPBinResponse.self)).value
        #expect(viaSerializer.url == "\(base)/get")
        let response = await session.download("\(base)/get", to: into(scratch, "e")).serializingString().response
        #expect(response.serializationDuration > .zero)
        await session.shutdown()
    }

    /// `response(responseSerializer:)` with the built-in serializers and with a custom
    /// `DownloadResponseSerializerProtocol`, as Alamofire's Advanced Usage writes them.
    @Test func responseSerializerTakesBuiltInAndCustomSerializers() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let request = session.download("\(base)/bytes/300", to: into(scratch, "bytes"))
        let size = await withCheckedContinuation { continuation in
            request.response(responseSerializer: FileSizeSerializer()) { continuation.resume(returning: $0) }
        }
        #expect(size.value == 300)
        let url = await withCheckedContinuation { continuation in
            request.response(responseSerializer: .url) { continuation.resume(returning: $0) }
        }
        #expect(url.value == scratch.file("bytes"))
        let data = await withCheckedContinuation { continuation in
            request.response(responseSerializer: .data) { continuation.resume(returning: $0) }
        }
        #expect(data.value?.count == 300)
        let failed = await session.download("\(base)/get", to: into(scratch, "f"))
            .serializingDownload(using: FailingSerializer()).result
        guard case .failure(.responseSerializationFailed(.customSerializationFailed(let error))) = failed,
            error is Unreadable
        else {
            Issue.record("expected customSerializationFailed, got \(failed)")
            return
        }
        await session.shutdown()
    }

    /// The request's error reaches every serializer, and a body that is not what the serializer
    /// expects fails as Alamofire's does.
    @Test func failuresReadAsAlamofiresDo() async throws {
        let base = try TestEnvironment.httpbin().base
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = Session()
        let refused = await session.download("\(base)/status/404", to: into(scratch, "404")).validate()
            .serializingDecodable(HTTPBinResponse.self).result
        #expect(refused.failureValue?.responseCode == 404)
        let notJSON = await session.download("\(base)/html", to: into(scratch, "html")).serializingJSON().result
        #expect(notJSON.failureValue?.isResponseSerializationError == true)
        guard case .failure(.responseSerializationFailed(.jsonSerializationFailed)) = notJSON else {
            Issue.record("expected jsonSerializationFailed, got \(notJSON)")
            return
        }
        let undecodable = await session.download("\(base)/html", to: into(scratch, "html2"))
            .serializingDecodable(HTTPBinResponse.self).result
        guard case .failure(.responseSerializationFailed(.decodingFailed)) = undecodable else {
            Issue.record("expected decodingFailed, got \(undecodable)")
            return
        }
        let empty = try await session.download("\(base)/status/204", to: into(scratch, "204")).serializingString().value
        #expect(empty.isEmpty)
        await session.shutdown()
    }
}

struct DownloadResponseSerializerProtocolTests {
    /// Alamofire: any serializer that is both a data and a download serializer reads the file
    /// and feeds its bytes to `serialize`; no file is `.inputFileNil`.
    @Test func dataSerializersReadTheFile() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.file("body")
        try Data("{\"a\": 1}".utf8).write(to: file)
        let json = try JSONResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: file, error: nil)
        #expect(json["a"]?.integerValue == 1)
        #expect(try StringResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: file, error: nil)
            == "{\"a\": 1}")
        #expect(throws: WickError.self) {
            try DataResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: nil, error: nil)
        }
        do {
            _ = try DataResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: nil, error: nil)
        } catch let error as WickError {
            guard case .responseSerializationFailed(.inputFileNil) = error else {
                Issue.record("\(error)")
                return
            }
        }
        do {
            _ = try DataResponseSerializer().serializeDownload(
                request: nil, response: nil, fileURL: scratch.file("gone"), error: nil)
            Issue.record("a missing file was read")
        } catch let error as WickError {
            guard case .responseSerializationFailed(.inputFileReadFailed(let path)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == scratch.file("gone").path)
        }
    }

    @Test func theRequestsErrorWinsAndTheURLSerializerNeedsAFile() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        do {
            _ = try StringResponseSerializer().serializeDownload(
                request: nil, response: nil, fileURL: scratch.url, error: .explicitlyCancelled)
            Issue.record("the error was not rethrown")
        } catch let error as WickError {
            #expect(error.isExplicitlyCancelledError)
        }
        #expect(try URLResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: scratch.url, error: nil)
            == scratch.url)
        #expect(throws: WickError.self) {
            try URLResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: nil, error: nil)
        }
    }
}
