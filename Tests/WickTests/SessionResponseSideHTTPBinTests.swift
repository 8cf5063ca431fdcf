// The response side against httpbin: validations, String and Decodable handlers, empty bodies,
// and cURLDescription run through the real curl.
import Foundation
import Testing
import Wick
import WickTestSupport

/// httpbin's `/json`.
private struct Slideshow: Decodable, Sendable {
    struct Show: Decodable, Sendable {
        var author: String
        var title: String
        var slides: [Slide]
    }
    struct Slide: Decodable, Sendable {
        var title: String
    }
    var slideshow: Show
}

private struct Person: Decodable, Sendable {
    var name: String
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct SessionResponseSideHTTPBinTests {
    // MARK: Validation

    @Test func validateRefusesAnErrorStatusButKeepsTheResponse() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await session.request("\(base)/status/404").validate().serializingData().response
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(404))) = response.result else {
            Issue.record("expected unacceptableStatusCode(404), got \(response.result)")
            return
        }
        #expect(response.response?.statusCode == 404)
        let accepted = await session.request("\(base)/status/418").validate(statusCode: [418]).serializingData(
            emptyResponseCodes: [418]
        ).result
        #expect(throws: Never.self) { try accepted.get() }
        await session.shutdown()
    }

    @Test func validateContentTypeAgainstXMLAndJSON() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let xml = await session.request("\(base)/xml").validate(contentType: ["application/json"]).serializingData()
            .result
        guard
            case .failure(
                .responseValidationFailed(.unacceptableContentType(["application/json"], "application/xml"))) = xml
        else {
            Issue.record("expected unacceptableContentType, got \(xml)")
            return
        }
        for acceptable in [["application/xml"], ["application/*"], ["*/xml"], ["text/html", "*/*"]] {
            let result = await session.request("\(base)/xml").validate(contentType: acceptable).serializingData().result
            #expect(throws: Never.self, "\(acceptable)") { try result.get() }
        }
        let json = await session.request("\(base)/json").validate(contentType: ["Application/JSON"]).serializingData()
            .result
        #expect(throws: Never.self) { try json.get() }
        // An empty body passes whatever its type.
        let empty = await session.request("\(base)/status/204").validate(contentType: ["image/png"]).serializingData()
            .result
        #expect(throws: Never.self) { try empty.get() }
        await session.shutdown()
    }

    @Test func validateChecksTheAcceptFieldSent() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let json = await session.request("\(base)/json", headers: [.accept("application/json, text/*;q=0.5")])
            .validate().serializingData().result
        #expect(throws: Never.self) { try json.get() }
        let xml = await session.request("\(base)/xml", headers: [.accept("application/json, text/*;q=0.5")])
            .validate().serializingData().result
        guard
            case .failure(.responseValidationFailed(.unacceptableContentType(let acceptable, "application/xml"))) = xml
        else {
            Issue.record("expected unacceptableContentType, got \(xml)")
            return
        }
        #expect(acceptable == ["application/json", "text/*;q=0.5"])
        // Without Accept, any type passes.
        let html = await session.request("\(base)/html").validate().serializingData().result
        #expect(throws: Never.self) { try html.get() }
        await session.shutdown()
    }

    // MARK: Serializers

    @Test func responseStringFollowsTheUTF8Charset() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await withCheckedContinuation { continuation in
            session.request("\(base)/encoding/utf8").responseString { continuation.resume(returning: $0) }
        }
        #expect(try #require(response.value).contains("∮ E⋅da = Q"))
        let forced = try await session.request("\(base)/encoding/utf8").serializingString(encoding: .isoLatin1).value
        #expect(!forced.contains("∮") && forced.contains("\u{E2}\u{88}\u{AE}"))
        await session.shutdown()
    }

    @Test func responseDecodableDecodesJSONAndFailsOnHTML() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let response = await withCheckedContinuation { continuation in
            session.request("\(base)/json").responseDecodable(of: Slideshow.self) { continuation.resume(returning: $0) }
        }
        let show = try #require(response.value).slideshow
        #expect(show.author == "Yours Truly")
        #expect(show.slides.map(\.title) == ["Wake up to WonderWidgets!", "Overview"])
        #expect(response.serializationDuration > .zero)
        let html = await session.request("\(base)/html").serializingDecodable(Slideshow.self).result
        guard case .failure(.responseSerializationFailed(.decodingFailed)) = html else {
            Issue.record("expected decodingFailed, got \(html)")
            return
        }
        await session.shutdown()
    }

    @Test func noContentThroughEverySerializer() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let url = "\(base)/status/204"
        #expect(try await session.request(url).serializingData().value.isEmpty)
        #expect(try await session.request(url).serializingString().value == "")
        #expect(try await session.request(url).serializingDecodable(Empty.self).value == Empty.value)
        let person = await session.request(url).serializingDecodable(Person.self).result
        guard case .failure(.responseSerializationFailed(.invalidEmptyResponse("Person"))) = person else {
            Issue.record("expected invalidEmptyResponse, got \(person)")
            return
        }
        let unserialized = await withCheckedContinuation { continuation in
            session.request(url).response { continuation.resume(returning: $0) }
        }
        // Alamofire's unserialized response: no body byte arrived, so its data is nil.
        #expect(try unserialized.result.get() == nil && unserialized.data == nil)
        await session.shutdown()
    }

    @Test func headHasAnEmptyBodyEveryKindAccepts() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let url = "\(base)/json"
        #expect(try await session.request(url, method: .head).serializingString().value == "")
        #expect(try await session.request(url, method: .head).serializingDecodable(Empty.self).value == Empty.value)
        let get = await session.request("\(base)/status/200").serializingString().result
        guard case .failure(.responseSerializationFailed(.inputDataNilOrZeroLength)) = get else {
            Issue.record("expected inputDataNilOrZeroLength, got \(get)")
            return
        }
        await session.shutdown()
    }

    @Test func theUnserializedResponseCarriesTheError() async throws {
        let session = Session()
        let response = await withCheckedContinuation { continuation in
            session.request("gopher://nowhere/").response { continuation.resume(returning: $0) }
        }
        guard case .failure(.invalidURL) = response.result else {
            Issue.record("expected invalidURL, got \(response.result)")
            return
        }
        #expect(response.data == nil)
        await session.shutdown()
    }

    // MARK: cURL

    @Test func theCURLDescriptionSendsWhatWickSent() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let headers: HTTPHeaders = [
            .contentType("text/plain; charset=utf-8"), HTTPHeader(name: "X-Quote", value: #"it's "$HOME" `x`"#),
            .authorization(bearerToken: "t0k"),
        ]
        let body = Data("line 1\nit's ünïcödé $PATH\n".utf8)
        let request = session.request("\(base)/post?q=a%20b", method: .post, headers: headers, body: body)
        // The handler does not start the request (as in Alamofire); the data task does.
        let task = request.serializingData()
        let described = await withCheckedContinuation { continuation in
            request.cURLDescription { continuation.resume(returning: $0) }
        }
        let wick = try httpbinJSON(try await task.value)
        #expect(request.cURLDescription() == described && described.hasPrefix("$ curl -v \\\n\t-X POST"))
        let (output, status) = try runShell(
            request.cURLCommand().replacingOccurrences(of: "curl -v", with: "curl -s --max-time 20"))
        #expect(status == 0)
        let curl = try httpbinJSON(output)
        #expect(curl["headers"] as? [String: String] == wick["headers"] as? [String: String])
        #expect(curl["data"] as? String == "line 1\nit's ünïcödé $PATH\n")
        #expect(curl["data"] as? String == wick["data"] as? String)
        #expect(curl["url"] as? String == wick["url"] as? String)
        #expect(curl["args"] as? [String: String] == ["q": "a b"])
        await session.shutdown()
    }

    @Test func theCURLHandlerSeesTheAdaptedRequestAndIsCalledAtOnceWhenSent() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let adapter = Adapter { request, _, completion in
            var adapted = request
            adapted.headers.add(name: "X-Adapted", value: "yes")
            completion(.success(adapted))
        }
        let request = session.request("\(base)/get", interceptor: Interceptor(adapters: [adapter], retriers: []))
        let task = request.serializingData()
        let first = await withCheckedContinuation { continuation in
            request.cURLDescription { continuation.resume(returning: $0) }
        }
        #expect(first.contains("-H \"X-Adapted: yes\""))
        _ = await task.result
        let queue = DispatchQueue(label: "curl-handler")
        let later = await withCheckedContinuation { continuation in
            request.cURLDescription(on: queue) { description in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: description)
            }
        }
        #expect(later == first)
        await session.shutdown()
    }

    @Test func binaryBodiesAndHEADGoThroughCurlToo() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let bytes = Data((0...255).map(UInt8.init) + [0x27, 0x25, 0x5C])
        let request = session.request("\(base)/put", method: .put, body: bytes)
        let wick = try httpbinJSON(try await request.serializingData().value)
        let (output, status) = try runShell(
            request.cURLCommand().replacingOccurrences(of: "curl -v", with: "curl -s --max-time 20"))
        #expect(status == 0)
        let curl = try httpbinJSON(output)
        #expect(curl["data"] as? String == wick["data"] as? String)
        #expect(curl["headers"] as? [String: String] == wick["headers"] as? [String: String])

        let head = session.request("\(base)/get", method: .head)
        _ = await head.serializingData().result
        let (headOutput, headStatus) = try runShell(
            head.cURLCommand().replacingOccurrences(of: "curl -v", with: "curl -s --max-time 20"))
        #expect(headStatus == 0)
        #expect(String(decoding: headOutput, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        await session.shutdown()
    }
}

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct CURLDescriptionNginxTests {
    @Test func aUnixSocketRequestGoesThroughCurlsUnixSocket() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let url = SessionUnixSocketTests.url(socket: nginx.unixSocket, "/bytes/1k")
        let request = session.request(url)
        let wick = try await request.serializingData().value
        let (output, status) = try runShell(
            request.cURLCommand().replacingOccurrences(of: "curl -v", with: "curl -s --max-time 20"))
        #expect(status == 0)
        #expect(output == wick)
        #expect(wick.count == 1024)
        await session.shutdown()
    }
}
