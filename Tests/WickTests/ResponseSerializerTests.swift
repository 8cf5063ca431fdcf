// The serializers on their own: empty-body rules, charsets, Decodable, preprocessors.
import Foundation
import Testing
import Wick
import WickTestSupport

/// A request and response pair to serialize.
private func exchange(
    method: HTTPMethod = .get, status: Int = 200, contentType: String? = nil
) -> (HTTPRequest, HTTPResponse) {
    var headers = HTTPHeaders()
    if let contentType { headers.add(.contentType(contentType)) }
    return (
        HTTPRequest(method: method, url: URL(string: "http://example.com/")!, headers: [:], body: nil),
        HTTPResponse(status: HTTPStatus(rawValue: status), headers: headers, version: .http1_1)
    )
}

private struct User: Codable, Sendable, Equatable {
    var name: String
    var age: Int
}

private struct NotEmpty: Decodable, Sendable {}

private struct Marker: Decodable, Sendable, EmptyResponse {
    var empty: Bool
    static func emptyValue() -> Marker { Marker(empty: true) }
}

private struct Refusing: DataPreprocessor {
    struct Refused: Error {}
    func preprocess(_ data: Data) throws -> Data { throw Refused() }
}

/// The reason of a serialization failure, or nil.
private func reason<T>(_ body: () throws -> T) -> ResponseSerializationFailureReason? {
    do {
        _ = try body()
        return nil
    } catch WickError.responseSerializationFailed(let reason) {
        return reason
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

struct ResponseSerializerTests {
    // MARK: Empty bodies

    @Test(arguments: [nil, Data()])
    func anEmptyBodyFailsEverySerializerUnlessAllowed(data: Data?) throws {
        let (request, response) = exchange(status: 200)
        let failures: [ResponseSerializationFailureReason?] = [
            reason {
                try DataResponseSerializer().serialize(request: request, response: response, data: data, error: nil)
            },
            reason {
                try StringResponseSerializer().serialize(request: request, response: response, data: data, error: nil)
            },
            reason {
                try DecodableResponseSerializer<Empty>().serialize(
                    request: request, response: response, data: data, error: nil)
            },
        ]
        for failure in failures {
            guard case .inputDataNilOrZeroLength? = failure else {
                Issue.record("expected inputDataNilOrZeroLength, got \(String(describing: failure))")
                continue
            }
        }
    }

    @Test(arguments: [(HTTPMethod.get, 204), (.get, 205), (.head, 200)])
    func theDefaultStatusesAndMethodsAllowAnEmptyBody(method: HTTPMethod, status: Int) throws {
        let (request, response) = exchange(method: method, status: status)
        #expect(
            try DataResponseSerializer().serialize(request: request, response: response, data: nil, error: nil).isEmpty)
        #expect(
            try StringResponseSerializer().serialize(request: request, response: response, data: Data(), error: nil)
                == "")
        #expect(
            try DecodableResponseSerializer<Empty>().serialize(
                request: request, response: response, data: nil, error: nil)
                == Empty.value)
        #expect(
            try DecodableResponseSerializer<Marker>().serialize(
                request: request, response: response, data: nil, error: nil
            )
            .empty)
    }

    @Test func customEmptyCodesAndMethodsReplaceTheDefaults() throws {
        let (get200, ok) = exchange(status: 200)
        let string = StringResponseSerializer(emptyResponseCodes: [200], emptyRequestMethods: [])
        #expect(try string.serialize(request: get200, response: ok, data: nil, error: nil) == "")
        let (head, noContent) = exchange(method: .head, status: 204)
        guard
            case .inputDataNilOrZeroLength? = reason({
                try string.serialize(request: head, response: noContent, data: nil, error: nil)
            })
        else {
            Issue.record("204 and HEAD are no longer allowed")
            return
        }
        let (delete, _) = exchange(method: .delete)
        let decodable = DecodableResponseSerializer<Empty>(emptyResponseCodes: [], emptyRequestMethods: [.delete])
        #expect(try decodable.serialize(request: delete, response: ok, data: Data(), error: nil) == Empty.value)
    }

    @Test func anAllowedEmptyBodyFailsForATypeWithoutAnEmptyValue() {
        let (request, response) = exchange(status: 204)
        let failure = reason {
            try DecodableResponseSerializer<NotEmpty>().serialize(
                request: request, response: response, data: nil, error: nil)
        }
        guard case .invalidEmptyResponse(let type)? = failure else {
            Issue.record("expected invalidEmptyResponse, got \(String(describing: failure))")
            return
        }
        #expect(type == "NotEmpty")
    }

    @Test func theRequestErrorIsRethrownBeforeAnything() {
        let (request, response) = exchange(status: 200)
        #expect(throws: WickError.self) {
            try StringResponseSerializer().serialize(
                request: request, response: response, data: Data("x".utf8), error: .explicitlyCancelled)
        }
        do {
            _ = try DecodableResponseSerializer<User>().serialize(
                request: request, response: response, data: nil, error: .sessionInvalidated)
            Issue.record("no error")
        } catch {
            guard case .sessionInvalidated = error else {
                Issue.record("got \(error)")
                return
            }
        }
    }

    // MARK: Strings

    @Test(
        arguments: [
            ("text/plain; charset=utf-8", [0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
            ("text/plain; charset=\"UTF-8\"", [0xE2, 0x82, 0xAC], "€"),
            ("text/plain; charset=ISO-8859-1", [0x63, 0x61, 0x66, 0xE9], "café"),
            ("text/plain; charset=latin1", [0xC3, 0xA9], "Ã©"),
            ("text/plain; charset=us-ascii", [0x61, 0x62], "ab"),
            ("text/plain; charset=utf-16", [0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00], "hi"),
            ("text/plain; charset=utf-16le", [0x68, 0x00, 0x69, 0x00], "hi"),
            ("text/plain; charset=UTF-16BE", [0x00, 0x68, 0x00, 0x69], "hi"),
            ("text/plain", [0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
            ("text/plain", [0x63, 0x61, 0x66, 0xE9], "café"),
            ("text/plain; charset=x-unknown", [0x63, 0x61, 0x66, 0xE9], "café"),
            ("text/plain; charset=windows-1252", [0x63, 0x61, 0x66, 0xE9], "café"),
            ("", [0xC3, 0xA9], "é"),
        ] as [(String, [UInt8], String)])
    func theCharsetChoosesTheEncodingWithUTF8ThenLatin1AsFallback(
        contentType: String, bytes: [UInt8], expected: String
    ) throws {
        let (request, response) = exchange(contentType: contentType.isEmpty ? nil : contentType)
        let string = try StringResponseSerializer().serialize(
            request: request, response: response, data: Data(bytes), error: nil)
        #expect(string == expected)
    }

    @Test func bytesInvalidForTheNamedCharsetFail() {
        let (request, response) = exchange(contentType: "text/plain; charset=us-ascii")
        let failure = reason {
            try StringResponseSerializer().serialize(
                request: request, response: response, data: Data([0xE9]), error: nil)
        }
        guard case .stringSerializationFailed(let encoding)? = failure else {
            Issue.record("expected stringSerializationFailed, got \(String(describing: failure))")
            return
        }
        #expect(encoding == .ascii)
        let (_, utf8) = exchange(contentType: "text/plain; charset=utf-8")
        guard
            case .stringSerializationFailed(.utf8)? = reason({
                try StringResponseSerializer().serialize(
                    request: request, response: utf8, data: Data([0xE9]), error: nil)
            })
        else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
    }

    @Test func anExplicitEncodingOverridesTheCharset() throws {
        let (request, response) = exchange(contentType: "text/plain; charset=utf-8")
        let serializer = StringResponseSerializer(encoding: .isoLatin1)
        let text = try serializer.serialize(request: request, response: response, data: Data([0xC3, 0xA9]), error: nil)
        #expect(text == "Ã©")
    }

    // MARK: Decodable

    @Test func decodesJSON() throws {
        let (request, response) = exchange(contentType: "application/json")
        let user = try DecodableResponseSerializer<User>().serialize(
            request: request, response: response, data: Data(#"{"name":"ada","age":36}"#.utf8), error: nil)
        #expect(user == User(name: "ada", age: 36))
    }

    @Test(arguments: [#"{"name":"ada"}"#, "<html></html>", #"{"name":"ada","age":"x"}"#])
    func aBodyThatDoesNotDecodeFailsWithTheDecodersError(body: String) {
        let (request, response) = exchange()
        let failure = reason {
            try DecodableResponseSerializer<User>().serialize(
                request: request, response: response, data: Data(body.utf8), error: nil)
        }
        guard case .decodingFailed(let error)? = failure else {
            Issue.record("expected decodingFailed, got \(String(describing: failure))")
            return
        }
        #expect(error is DecodingError)
    }

    @Test func anotherDecoderIsUsed() throws {
        let (request, response) = exchange()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Snake: Decodable, Sendable { var userName: String }
        let value = try DecodableResponseSerializer<Snake>(decoder: decoder).serialize(
            request: request, response: response, data: Data(#"{"user_name":"ada"}"#.utf8), error: nil)
        #expect(value.userName == "ada")
    }

    // MARK: Preprocessors

    @Test func theGoogleXSSIPrefixIsRemovedOnlyWhenPresent() throws {
        let prefixed = Data(")]}',\n{\"name\":\"ada\",\"age\":1}".utf8)
        let stripped = try GoogleXSSIPreprocessor().preprocess(prefixed)
        #expect(stripped == Data("{\"name\":\"ada\",\"age\":1}".utf8))
        #expect(stripped.startIndex == 0)
        #expect(try GoogleXSSIPreprocessor().preprocess(Data(")]}'".utf8)) == Data(")]}'".utf8))
        #expect(try PassthroughPreprocessor().preprocess(prefixed) == prefixed)
        let (request, response) = exchange()
        let user = try DecodableResponseSerializer<User>(dataPreprocessor: .googleXSSI).serialize(
            request: request, response: response, data: prefixed, error: nil)
        #expect(user.name == "ada")
        let data = try DataResponseSerializer(dataPreprocessor: .googleXSSI).serialize(
            request: request, response: response, data: prefixed, error: nil)
        #expect(data == stripped)
    }

    @Test func aPreprocessorErrorIsACustomSerializationFailure() {
        let (request, response) = exchange()
        let failure = reason {
            try StringResponseSerializer(dataPreprocessor: Refusing()).serialize(
                request: request, response: response, data: Data("x".utf8), error: nil)
        }
        guard case .customSerializationFailed(let error)? = failure else {
            Issue.record("expected customSerializationFailed, got \(String(describing: failure))")
            return
        }
        #expect(error is Refusing.Refused)
        // An empty body never reaches the preprocessor.
        let (head, _) = exchange(method: .head)
        #expect(throws: Never.self) {
            try DataResponseSerializer(dataPreprocessor: Refusing()).serialize(
                request: head, response: response, data: nil, error: nil)
        }
    }

    @Test func staticFactoriesMakeTheSameSerializers() {
        #expect(StringResponseSerializer.string(encoding: .utf16).encoding == .utf16)
        #expect(DataResponseSerializer.data(emptyResponseCodes: [200]).emptyResponseCodes == [200])
        #expect(
            DecodableResponseSerializer<User>.decodable(of: User.self, emptyRequestMethods: []).emptyRequestMethods
                .isEmpty)
        #expect(StringResponseSerializer.string.dataPreprocessor is PassthroughPreprocessor)
    }
}

struct ResponseSerializerStaticMemberTests {
    @Test func staticMembersReadAsTheSerializerArgument() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{\"name\":\"x\"}\n".utf8)),
        ])
        defer { server.stop() }
        let session = Session()
        struct Named: Decodable, Sendable { var name: String }
        let request = session.request("http://127.0.0.1:\(server.port)/")
        let string = try await request.serializingResponse(using: .string).value
        let data = try await request.serializingResponse(using: .data).value
        let named = try await request.serializingResponse(using: .decodable(of: Named.self)).value
        #expect(string == "{\"name\":\"x\"}\n")
        #expect(data.count == 13)
        #expect(named.name == "x")
        await session.shutdown()
    }
}
