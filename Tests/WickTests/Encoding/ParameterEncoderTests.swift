// JSONParameterEncoder and URLEncodedFormParameterEncoder on HTTPRequest (after Alamofire's ParameterEncoderTests).
import Foundation
import Testing
import Wick

struct JSONParameterEncoderTests {
    @Test func theBodyIsJSONAndContentTypeIsSet() throws {
        let encoded = try JSONParameterEncoder().encode(TestParameters.default, into: EncodingFixtures.request(.post))
        #expect(encoded.headers["Content-Type"] == "application/json")
        #expect(encoded.body == Data(#"{"property":"property"}"#.utf8))
    }

    /// JSON always goes in the body, whatever the method; the URL is untouched.
    @Test(arguments: EncodingFixtures.methodsAndQueryDestination.map(\.0))
    func theBodyIsUsedForEveryMethod(_ method: HTTPMethod) throws {
        let request = EncodingFixtures.request(method, "https://example.com/path?x=1")
        let encoded = try JSONParameterEncoder.default.encode(TestParameters.default, into: request)
        #expect(encoded.body == Data(#"{"property":"property"}"#.utf8))
        #expect(encoded.url == request.url)
        #expect(encoded.method == method)
    }

    @Test func anExistingContentTypeIsKept() throws {
        let request = EncodingFixtures.request(.post, headers: ["content-type": "type", "X-Other": "1"])
        let encoded = try JSONParameterEncoder().encode(TestParameters.default, into: request)
        #expect(encoded.headers.values(for: "Content-Type") == ["type"])
        #expect(encoded.headers["X-Other"] == "1")
        #expect(encoded.body == Data(#"{"property":"property"}"#.utf8))
    }

    @Test func anExistingBodyIsReplaced() throws {
        var request = EncodingFixtures.request(.post)
        request.body = Data("old".utf8)
        #expect(try JSONParameterEncoder().encode(["a": 1], into: request).body == Data(#"{"a":1}"#.utf8))
    }

    @Test(
        arguments: [
            ("default", JSONParameterEncoder.default, #"{"property":"property"}"#),
            ("prettyPrinted", .prettyPrinted, "{\n  \"property\" : \"property\"\n}"),
            ("sortedKeys", .sortedKeys, #"{"property":"property"}"#),
            ("json shorthand", .json, #"{"property":"property"}"#),
        ])
    func thePresetsFormatAsNamed(_ name: String, encoder: JSONParameterEncoder, expected: String) throws {
        let encoded = try encoder.encode(TestParameters.default, into: EncodingFixtures.request(.post))
        #expect(encoded.body.map { String(decoding: $0, as: UTF8.self) } == expected, "\(name)")
    }

    @Test func sortedKeysSortsKeys() throws {
        let encoded = try JSONParameterEncoder.sortedKeys.encode(
            ["z": "z", "a": "a", "p": "p"], into: EncodingFixtures.request(.post))
        #expect(encoded.body == Data(#"{"a":"a","p":"p","z":"z"}"#.utf8))
    }

    @Test func theJSONEncoderCanBeCustomised() throws {
        let jsonEncoder = JSONEncoder()
        jsonEncoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        jsonEncoder.keyEncodingStrategy = .convertToSnakeCase
        struct CamelCase: Encodable, Sendable {
            let oneTwo = 1
            let aB = 2
        }
        let encoded = try ParameterEncoderTestsSupport.encode(CamelCase(), with: .json(encoder: jsonEncoder))
        #expect(encoded.body.map { String(decoding: $0, as: UTF8.self) } == "{\n  \"a_b\" : 2,\n  \"one_two\" : 1\n}")
    }

    @Test func nilParametersLeaveTheRequestUnchanged() throws {
        let request = EncodingFixtures.request(.post, headers: ["A": "b"])
        let encoded = try JSONParameterEncoder().encode(nil as TestParameters?, into: request)
        #expect(encoded.body == nil)
        #expect(encoded.headers == request.headers)
        #expect(encoded.url == request.url)
    }

    @Test func aValueJSONCannotHoldIsAJSONEncodingFailure() {
        #expect(
            performing: {
                try JSONParameterEncoder().encode(["a": Double.nan], into: EncodingFixtures.request(.post))
            },
            throws: { error in
                guard case WickError.parameterEncodingFailed(.jsonEncodingFailed(let cause)) = error else {
                    return false
                }
                return cause is EncodingError
                    && "\(error)".hasPrefix("parameter encoding failed: the parameters could not be encoded as JSON")
            })
    }
}

struct URLEncodedFormParameterEncoderTests {
    @Test(arguments: EncodingFixtures.methodsAndQueryDestination)
    func methodDependentPutsTheFormInTheQueryOrTheBody(_ method: HTTPMethod, inQuery: Bool) throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(
            TestParameters.default, into: EncodingFixtures.request(method))
        if inQuery {
            #expect(encoded.url.absoluteString == "https://example.com/path?property=property")
            #expect(encoded.body == nil)
            #expect(encoded.headers["Content-Type"] == nil)
        } else {
            #expect(encoded.url.absoluteString == "https://example.com/path")
            #expect(encoded.body == Data("property=property".utf8))
            #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    @Test(arguments: [HTTPMethod.get, .post])
    func queryStringPutsTheFormInTheQueryForAnyMethod(_ method: HTTPMethod) throws {
        let encoder = URLEncodedFormParameterEncoder(destination: .queryString)
        let encoded = try encoder.encode(TestParameters.default, into: EncodingFixtures.request(method))
        #expect(encoded.url.absoluteString == "https://example.com/path?property=property")
        #expect(encoded.body == nil)
    }

    @Test(arguments: [HTTPMethod.get, .post])
    func httpBodyPutsTheFormInTheBodyForAnyMethod(_ method: HTTPMethod) throws {
        let encoder = URLEncodedFormParameterEncoder(destination: .httpBody)
        let encoded = try encoder.encode(TestParameters.default, into: EncodingFixtures.request(method))
        #expect(encoded.url.absoluteString == "https://example.com/path")
        #expect(encoded.body == Data("property=property".utf8))
    }

    @Test(
        arguments: [
            ("https://example.com/path?x=1", "https://example.com/path?x=1&property=property"),
            ("https://example.com/path?", "https://example.com/path?property=property"),
            ("https://example.com/path?a=%20b#frag", "https://example.com/path?a=%20b&property=property#frag"),
            ("http://[::1]:8080/p%20q", "http://[::1]:8080/p%20q?property=property"),
            ("http+unix://%2Ftmp%2Fwick.sock/a?b=c", "http+unix://%2Ftmp%2Fwick.sock/a?b=c&property=property"),
        ])
    func anExistingQueryAndTheRestOfTheURLAreKept(_ url: String, expected: String) throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(
            TestParameters.default, into: EncodingFixtures.request(.get, url))
        #expect(encoded.url.absoluteString == expected)
    }

    @Test func aRelativeURLIsResolvedAgainstItsBase() throws {
        let url = URL(string: "b?x=1", relativeTo: URL(string: "https://example.com/a/")!)!
        let request = HTTPRequest(method: .get, url: url, headers: [:], body: nil)
        let encoded = try URLEncodedFormParameterEncoder().encode(TestParameters.default, into: request)
        #expect(encoded.url.absoluteString == "https://example.com/a/b?x=1&property=property")
    }

    @Test func theRestOfTheRequestIsKept() throws {
        let request = HTTPRequest(
            method: .get, url: URL(string: "http://localhost/a")!, headers: ["Accept": "text/plain"], body: nil,
            unixSocketPath: "/tmp/wick.sock")
        let encoded = try URLEncodedFormParameterEncoder().encode(["q": "1"], into: request)
        #expect(encoded.unixSocketPath == "/tmp/wick.sock")
        #expect(encoded.headers == request.headers)
        #expect(encoded.method == .get)
    }

    @Test func anExistingContentTypeIsKept() throws {
        let request = EncodingFixtures.request(.post, headers: ["Content-Type": "type"])
        let encoded = try URLEncodedFormParameterEncoder().encode(TestParameters.default, into: request)
        #expect(encoded.headers.values(for: "Content-Type") == ["type"])
        #expect(encoded.body == Data("property=property".utf8))
    }

    @Test func theFormEncoderCanBeCustomised() throws {
        let encoder = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(boolEncoding: .literal))
        let encoded = try encoder.encode(["bool": true], into: EncodingFixtures.request())
        #expect(encoded.url.query(percentEncoded: true) == "bool=true")
        let shorthand = try ParameterEncoderTestsSupport.encode(
            ["a b": "c"],
            with: .urlEncodedForm(encoder: URLEncodedFormEncoder(spaceEncoding: .plusReplaced), destination: .httpBody))
        #expect(shorthand.body == Data("a+b=c".utf8))
        #expect(try ParameterEncoderTestsSupport.encode(["a": "b"], with: .urlEncodedForm).url.query() == "a=b")
    }

    @Test func nilParametersLeaveTheRequestUnchanged() throws {
        for method in [HTTPMethod.get, .post] {
            let request = EncodingFixtures.request(method)
            let encoded = try URLEncodedFormParameterEncoder().encode(nil as TestParameters?, into: request)
            #expect(encoded.url == request.url && encoded.body == nil && encoded.headers.isEmpty)
        }
    }

    @Test func anEmptyFormLeavesTheURLUnchanged() throws {
        let request = EncodingFixtures.request(.get, "https://example.com/path?x=1")
        let encoded = try URLEncodedFormParameterEncoder().encode([String: String](), into: request)
        #expect(encoded.url == request.url)
        #expect(
            try URLEncodedFormParameterEncoder().encode(OptionalMembers(present: "p"), into: request).url.query()
                == "x=1&present=p")
    }

    /// As in Alamofire, an empty form for the body is an empty body, declared as a form.
    @Test func anEmptyFormForTheBodyIsAnEmptyFormBody() throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(
            [String: String](), into: EncodingFixtures.request(.post))
        #expect(encoded.body == Data())
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test(arguments: [HTTPMethod.get, .post])
    func aRootThatIsNotKeyedIsAnEncoderFailure(_ method: HTTPMethod) {
        let request = EncodingFixtures.request(method)
        #expect(
            performing: { try URLEncodedFormParameterEncoder().encode([1, 2], into: request) },
            throws: { error in
                guard case WickError.parameterEncoderFailed(.encoderFailed(let cause)) = error,
                    case URLEncodedFormEncoder.Error.invalidRootObject = cause
                else { return false }
                return "\(error)".hasPrefix(
                    "parameter encoder failed: the encoder failed: URLEncodedFormEncoder requires a keyed root object")
            })
    }

    @Test func anErrorOfACustomEncodingIsAnEncoderFailure() {
        let encoder = URLEncodedFormParameterEncoder(
            encoder: URLEncodedFormEncoder(dateEncoding: .custom { _ in throw CustomEncodingError() }))
        #expect(
            performing: { try encoder.encode(["d": Date()], into: EncodingFixtures.request()) },
            throws: { error in
                guard case WickError.parameterEncoderFailed(.encoderFailed(let cause)) = error else { return false }
                return cause is CustomEncodingError
            })
    }

    /// What the coordinator's `Session.request(...parameters:encoder:)` will do: build, encode, send.
    @Test func aRequestBuiltAndEncodedThroughThePublicAPI() throws {
        struct Search: Encodable, Sendable {
            let query: String
            let page: Int
            let tags: [String]
        }
        let request = HTTPRequest(
            method: .get, url: URL(string: "https://api.example.com/search")!, headers: .default, body: nil)
        let encoded = try URLEncodedFormParameterEncoder.default.encode(
            Search(query: "swift http", page: 2, tags: ["a&b", "ü"]), into: request)
        #expect(
            encoded.url.absoluteString
                == "https://api.example.com/search?page=2&query=swift%20http&tags%5B%5D=a%26b&tags%5B%5D=%C3%BC")
        #expect(encoded.headers == HTTPHeaders.default)
    }
}

enum ParameterEncoderTestsSupport {
    /// `parameters` encoded by `encoder` into a GET request, through the protocol (as `Session` will).
    static func encode(
        _ parameters: some Encodable & Sendable, with encoder: some ParameterEncoder
    ) throws -> HTTPRequest {
        try encoder.encode(parameters, into: EncodingFixtures.request())
    }
}
