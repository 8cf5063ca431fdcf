// Alamofire's Documentation/Usage.md, ported by changing the import: each test runs one of its
// examples as written (the `https://httpbin.org` base replaced by the local httpbin, UIKit and
// `print` replaced by what the test checks), and says where a line had to change and why.
import Dispatch
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct AlamofireUsageExamplesTests {
    /// The `httpbin.org` of the examples.
    let httpbin: String

    init() throws {
        httpbin = try TestEnvironment.httpbin().base
    }

    struct DecodableType: Decodable { let url: String }

    /// What httpbin echoes of a request.
    struct Echo: Decodable, Sendable {
        let args: [String: String]?
        let form: [String: FormValue]?
        let data: String?
        let headers: [String: String]?
    }

    /// A form field as httpbin echoes it: one value as a string, several as a list.
    enum FormValue: Decodable, Equatable, Sendable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) {
                self = .one(value)
            } else {
                self = .many(try container.decode([String].self))
            }
        }
    }

    /// The JSON body httpbin echoes, as `Body`.
    struct JSONEcho<Body: Decodable & Sendable>: Decodable, Sendable {
        let json: Body
    }

    /// Waits for a handler-style example to call `done` once.
    func example<Value: Sendable>(_ body: (@escaping @Sendable (Value) -> Void) -> Void) async -> Value {
        await withCheckedContinuation { continuation in body { continuation.resume(returning: $0) } }
    }

    // MARK: - Making Requests

    @Test func makingARequest() async {
        let response = await example { done in
            AF.request("\(httpbin)/get").response { response in
                debugPrint(response)
                done(response)
            }
        }
        #expect(response.response?.statusCode == 200 && response.data?.isEmpty == false)
    }

    @Test func httpMethods() async {
        // The example's four calls, then validated to show each reached its route.
        for (path, method) in [("get", HTTPMethod.get), ("post", .post), ("put", .put), ("delete", .delete)] {
            let response = await AF.request("\(httpbin)/\(path)", method: method).validate().serializingData().response
            #expect(response.error == nil, "\(method)")
        }
    }

    @Test func aCustomMethodIsSentAsItIs() async {
        let response = await AF.request("\(httpbin)/headers", method: .custom).serializingData().response
        // httpbin's route allows GET only: the server saw the method and refused it.
        #expect(response.response?.statusCode == 405 && response.request?.method.rawValue == "CUSTOM")
    }

    @Test func settingOtherRequestProperties() async {
        let modified = await AF.request("\(httpbin)/get", requestModifier: { $0.timeoutInterval = 5 })
            .serializingData().response
        // `urlRequest.allowsConstrainedNetworkAccess = false` is left out: an Apple network setting.
        let trailing = await AF.request("\(httpbin)/get") { urlRequest in
            urlRequest.timeoutInterval = 5
        }
        .serializingData().response
        #expect(modified.request?.timeoutInterval == 5 && trailing.request?.timeoutInterval == 5)
        #expect(modified.error == nil && trailing.error == nil)
    }

    // MARK: - Parameters and Parameter Encoders

    struct Login: Encodable {
        let email: String
        let password: String
    }

    @Test func postingJSONEncodedParameters() async throws {
        let login = Login(email: "test@test.test", password: "testPassword")
        let response = await example { done in
            AF.request(
                "\(httpbin)/post",
                method: .post,
                parameters: login,
                encoder: JSONParameterEncoder.default
            ).responseDecodable(of: JSONEcho<[String: String]>.self) { response in
                debugPrint(response)
                done(response)
            }
        }
        #expect(try response.result.get().json == ["email": "test@test.test", "password": "testPassword"])
    }

    @Test func getWithURLEncodedParameters() async throws {
        let parameters = ["foo": "bar"]
        // All three of these calls are equivalent
        let requests = [
            AF.request("\(httpbin)/get", parameters: parameters),
            AF.request("\(httpbin)/get", parameters: parameters, encoder: URLEncodedFormParameterEncoder.default),
            AF.request(
                "\(httpbin)/get", parameters: parameters,
                encoder: URLEncodedFormParameterEncoder(destination: .methodDependent)),
        ]
        for request in requests {
            let echo = try await request.serializingDecodable(Echo.self).value
            #expect(echo.args == ["foo": "bar"])
            #expect(request.request?.url.query == "foo=bar")
        }
    }

    @Test func postWithURLEncodedParameters() async throws {
        let parameters: [String: [String]] = [
            "foo": ["bar"],
            "baz": ["a", "b"],
            "qux": ["x", "y", "z"],
        ]
        let requests = [
            AF.request("\(httpbin)/post", method: .post, parameters: parameters),
            AF.request(
                "\(httpbin)/post", method: .post, parameters: parameters,
                encoder: URLEncodedFormParameterEncoder.default),
            AF.request(
                "\(httpbin)/post", method: .post, parameters: parameters,
                encoder: URLEncodedFormParameterEncoder(destination: .httpBody)),
        ]
        for request in requests {
            let echo = try await request.serializingDecodable(Echo.self).value
            #expect(echo.form == ["foo[]": .one("bar"), "baz[]": .many(["a", "b"]), "qux[]": .many(["x", "y", "z"])])
            // Alamofire's default sorts the pairs by key and escapes the brackets (the document
            // shows them unescaped, for reading).
            #expect(
                request.request?.body
                    == Data("baz%5B%5D=a&baz%5B%5D=b&foo%5B%5D=bar&qux%5B%5D=x&qux%5B%5D=y&qux%5B%5D=z".utf8))
        }
    }

    @Test func configuringTheURLEncodedFormEncoder() async throws {
        let encoder = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(arrayEncoding: .noBrackets))
        let request = AF.request("\(httpbin)/get", parameters: ["a": ["1", "2"]], encoder: encoder)
        _ = await request.serializingData().response
        #expect(request.request?.url.query == "a=1&a=2")
        let bools = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(boolEncoding: .numeric))
        let flagged = AF.request("\(httpbin)/get", parameters: ["on": true], encoder: bools)
        _ = await flagged.serializingData().response
        #expect(flagged.request?.url.query == "on=1")
    }

    @Test func postingJSONWithEachEncoder() async throws {
        let parameters: [String: [String]] = [
            "foo": ["bar"],
            "baz": ["a", "b"],
            "qux": ["x", "y", "z"],
        ]
        let encoders = [JSONParameterEncoder.default, .prettyPrinted, .sortedKeys]
        for encoder in encoders {
            let echo = try await AF.request("\(httpbin)/post", method: .post, parameters: parameters, encoder: encoder)
                .serializingDecodable(JSONEcho<[String: [String]]>.self).value
            #expect(echo.json == ["baz": ["a", "b"], "foo": ["bar"], "qux": ["x", "y", "z"]])
        }
        let sorted = AF.request(
            "\(httpbin)/post", method: .post, parameters: parameters, encoder: JSONParameterEncoder.sortedKeys)
        _ = await sorted.serializingData().response
        #expect(sorted.request?.body == Data(#"{"baz":["a","b"],"foo":["bar"],"qux":["x","y","z"]}"#.utf8))
    }

    @Test func manualParameterEncodingOfARequest() throws {
        let url = URL(string: "\(httpbin)/get")!
        // `URLRequest(url:)` becomes `HTTPRequest(url:)`: Wick does not link FoundationNetworking.
        let urlRequest = HTTPRequest(url: url)
        let parameters = ["foo": "bar"]
        let encodedURLRequest = try URLEncodedFormParameterEncoder.default.encode(parameters, into: urlRequest)
        #expect(encodedURLRequest.url.query == "foo=bar")
    }

    // MARK: - HTTP Headers

    @Test func headersAsADictionaryAndAsValues() async throws {
        let literal: HTTPHeaders = [
            "Authorization": "Basic VXNlcm5hbWU6UGFzc3dvcmQ=",
            "Accept": "application/json",
        ]
        let typed: HTTPHeaders = [
            .authorization(username: "Username", password: "Password"),
            .accept("application/json"),
        ]
        for headers in [literal, typed] {
            let echo = try await AF.request("\(httpbin)/headers", headers: headers).serializingDecodable(Echo.self)
                .value
            #expect(echo.headers?["Authorization"] == "Basic VXNlcm5hbWU6UGFzc3dvcmQ=")
            #expect(echo.headers?["Accept"] == "application/json")
        }
    }

    // MARK: - Response Validation

    @Test func automaticAndManualValidation() async {
        let automatic = await example { done in
            AF.request("\(httpbin)/get").validate().responseData { response in
                debugPrint(response)
                done(response.error == nil)
            }
        }
        let manual = await example { done in
            AF.request("\(httpbin)/get")
                .validate(statusCode: 200..<300)
                .validate(contentType: ["application/json"])
                .responseData { response in
                    switch response.result {
                    case .success:
                        done("Validation Successful")
                    case let .failure(error):
                        done("\(error)")
                    }
                }
        }
        let refused = await AF.request("\(httpbin)/status/404").validate(statusCode: 200..<300).serializingData()
            .response
        #expect(automatic && manual == "Validation Successful")
        #expect(refused.error?.isResponseValidationError == true && refused.error?.responseCode == 404)
    }

    // MARK: - Response Handling

    @Test func eachResponseHandler() async {
        let unserialized = await example { done in
            AF.request("\(httpbin)/get").response { response in done(response.data != nil) }
        }
        let data = await example { done in
            AF.request("\(httpbin)/get").responseData { response in done(response.value?.isEmpty == false) }
        }
        let string = await example { done in
            AF.request("\(httpbin)/get").responseString { response in done(response.value?.contains("url") == true) }
        }
        let decodable = await example { done in
            AF.request("\(httpbin)/get").responseDecodable(of: DecodableType.self) { response in
                done(response.value?.url)
            }
        }
        #expect(unserialized && data && string && decodable == "\(httpbin)/get")
    }

    @Test func chainedResponseHandlersSeeTheSameResponse() async {
        let seen = Shared<[String]>([])
        await example { done in
            AF.request("\(httpbin)/get")
                .responseString { response in
                    seen.withLock { $0.append("string \(response.value != nil)") }
                }
                .responseDecodable(of: DecodableType.self) { response in
                    seen.withLock { $0.append("decodable \(response.value != nil)") }
                    done(())
                }
        }
        #expect(seen.withLock { $0 } == ["string true", "decodable true"])
    }

    @Test func aResponseHandlerQueue() async {
        let utilityQueue = DispatchQueue.global(qos: .utility)
        let onUtility = await example { done in
            AF.request("\(httpbin)/get").responseDecodable(of: DecodableType.self, queue: utilityQueue) { response in
                // "This closure is executed on utilityQueue."
                dispatchPrecondition(condition: .onQueue(utilityQueue))
                done(response.value != nil)
            }
        }
        #expect(onUtility)
    }

    // MARK: - Authentication

    @Test func basicAuthenticationThreeWays() async {
        let user = "user"
        let password = "password"
        let byName = await AF.request("\(httpbin)/basic-auth/\(user)/\(password)")
            .authenticate(username: user, password: password)
            .serializingData().response
        // `URLCredential(user:password:persistence:)` becomes `HTTPCredential(user:password:)`:
        // FoundationEssentials has no URLCredential, and there is no keychain to persist into.
        let credential = HTTPCredential(user: user, password: password)
        let byCredential = await AF.request("\(httpbin)/basic-auth/\(user)/\(password)")
            .authenticate(with: credential)
            .serializingData().response
        let headers: HTTPHeaders = [.authorization(username: user, password: password)]
        let manual = await AF.request("\(httpbin)/basic-auth/user/password", headers: headers).serializingData()
            .response
        #expect([byName, byCredential, manual].map { $0.response?.statusCode } == [200, 200, 200])
    }

    // MARK: - Downloading Data to a File

    @Test func downloadingToADestinationWithProgress() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // `.documentDirectory` is an Apple location: the destination is a temporary directory.
        let destination: DownloadRequest.Destination = { _, _ in
            let fileURL = directory.appendingPathComponent("image.png")
            return (fileURL, [.removePreviousFile, .createIntermediateDirectories])
        }
        let response = await example { done in
            AF.download("\(httpbin)/image/png", to: destination).response { response in
                debugPrint(response)
                done(response)
            }
        }
        #expect(response.error == nil && response.fileURL?.path == directory.appendingPathComponent("image.png").path)
        let progressQueue = DispatchQueue(label: "com.alamofire.progressQueue", qos: .utility)
        let fractions = Shared<[Double]>([])
        let data = try await AF.download("\(httpbin)/image/png")
            .downloadProgress(queue: progressQueue) { progress in
                fractions.withLock { $0.append(progress.fractionCompleted) }
            }
            .serializingData().value
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // Progress runs on its own queue, in no order with the response: let it drain.
        progressQueue.sync {}
        #expect(fractions.withLock { $0.last } == 1)
    }

    @Test func cancellingAndResumingADownload() async throws {
        // A slow body with an ETag and Range support (httpbin's /range), so there is something
        // to resume: 64 KiB in 1 KiB chunks over about 2 s.
        let url = "\(httpbin)/range/65536?duration=2&chunk_size=1024"
        let received = Shared(0)
        let download = AF.download(url).downloadProgress { progress in
            received.withLock { $0 = Int(progress.completedBytes) }
        }
        download.resume()
        #expect(try await waitUntil { received.withLock { $0 } >= 8 * 1024 })
        let resumeData = await example { done in
            download.cancel { data in done(data) }
        }
        let data = try await AF.download(resumingWith: try #require(resumeData)).serializingData().value
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        #expect(data == Data((0..<65536).map { alphabet[$0 % 26] }))
    }

    // MARK: - Uploading Data to a Server

    @Test func uploadingDataAFileAndAForm() async throws {
        let data = Data("data".utf8)
        let sent = try await AF.upload(data, to: "\(httpbin)/post").serializingDecodable(Echo.self).value
        #expect(sent.data == "data")
        // `Bundle.main.url(forResource:)`: a test has no bundle; the file is written here.
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("af-usage-\(UUID().uuidString).mov")
        try Data(repeating: 7, count: 100_000).write(to: fileURL)
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let uploaded = Shared<Double>(0)
        let file = await AF.upload(fileURL, to: "\(httpbin)/post")
            .uploadProgress { progress in
                uploaded.withLock { $0 = progress.fractionCompleted }
            }
            .downloadProgress { _ in }
            .serializingDecodable(DecodableType.self).response
        AF.responseQueue.sync {}  // where the progress closures ran, in no order with the response
        #expect(file.value?.url == "\(httpbin)/post" && uploaded.withLock { $0 } == 1)
        let form = try await AF.upload(
            multipartFormData: { multipartFormData in
                multipartFormData.append(Data("one".utf8), withName: "one")
                multipartFormData.append(Data("two".utf8), withName: "two")
            }, to: "\(httpbin)/post"
        )
        .serializingDecodable(Echo.self).value
        #expect(form.form == ["one": .one("one"), "two": .one("two")])
    }

    // MARK: - Streaming Data from a Server

    @Test func streamingDataStringsAndDecodables() async {
        let bytes = await example { done in
            let count = Shared(0)
            AF.streamRequest("\(httpbin)/bytes/4096").responseStream { stream in
                switch stream.event {
                case let .stream(result):
                    switch result {
                    case let .success(data):
                        count.withLock { $0 += data.count }
                    }
                case let .complete(completion):
                    done((count.withLock { $0 }, completion.error))
                }
            }
        }
        #expect(bytes.0 == 4096 && bytes.1 == nil)
        let text = await example { done in
            let joined = Shared("")
            AF.streamRequest("\(httpbin)/get").responseStreamString { stream in
                switch stream.event {
                case let .stream(result):
                    switch result {
                    case let .success(string):
                        joined.withLock { $0 += string }
                    }
                case .complete:
                    done(joined.withLock { $0 })
                }
            }
        }
        #expect(text.contains("\"url\""))
        // httpbin's /stream/3 sends three JSON objects, one per line.
        let urls = await example { done in
            let values = Shared<[String]>([])
            AF.streamRequest("\(httpbin)/stream/3").responseStreamDecodable(of: DecodableType.self) { stream in
                switch stream.event {
                case let .stream(result):
                    if case let .success(value) = result { values.withLock { $0.append(value.url) } }
                case .complete:
                    done(values.withLock { $0 })
                }
            }
        }
        #expect(urls == Array(repeating: "\(httpbin)/stream/3", count: 3))
    }

    @Test func cancellingAStreamFromItsHandler() async {
        let completion = await example { done in
            AF.streamRequest("\(httpbin)/drip?numbytes=100&duration=5").responseStream { stream in
                switch stream.event {
                case .stream:
                    // Decide to cancel request.
                    stream.cancel()
                case let .complete(completion):
                    done(completion)
                }
            }
        }
        #expect(completion.error?.isExplicitlyCancelledError == true)
    }

    // MARK: - Statistical Metrics and cURL Command Output

    @Test func metricsAndTheCurlDescription() async {
        let described = Shared<String?>(nil)
        let metrics = await example { done in
            AF.request("\(httpbin)/get")
                .cURLDescription { description in
                    described.withLock { $0 = description }
                }
                .responseDecodable(of: DecodableType.self) { response in
                    debugPrint(response.metrics as Any)
                    done(response.metrics)
                }
        }
        #expect(metrics?.transactions.isEmpty == false)
        #expect(described.withLock { $0 }?.hasPrefix("$ curl -v") == true)
        #expect(described.withLock { $0 }?.contains("\(httpbin)/get") == true)
    }
}

extension HTTPMethod {
    static let custom = HTTPMethod(rawValue: "CUSTOM")
}
