// URLEncoding of a Parameters dictionary (after Alamofire's URLParameterEncodingTestCase).
import Foundation
import Testing
import Wick

struct URLEncodingTests {
    /// The query `parameters` make under `encoding` on a GET.
    static func query(_ parameters: Parameters, _ encoding: URLEncoding = .default) throws -> String? {
        try encoding.encode(EncodingFixtures.request(), with: parameters).url.query(percentEncoded: true)
    }

    @Test func nilAndEmptyParametersLeaveTheURLUnchanged() throws {
        let request = EncodingFixtures.request(.get, "https://example.com/path?x=1")
        #expect(try URLEncoding.default.encode(request, with: nil).url == request.url)
        #expect(try URLEncoding.default.encode(request, with: [:]).url == request.url)
        #expect(try URLEncoding.default.encode(request, with: ["a": nil as String?]).url == request.url)
        let post = EncodingFixtures.request(.post)
        let unchanged = try URLEncoding.default.encode(post, with: nil)
        #expect(unchanged.body == nil && unchanged.headers.isEmpty)
    }

    @Test(
        arguments: [
            ("one pair", ["foo": "bar"] as Parameters, "foo=bar"),
            ("pairs sorted by key", ["foo": "bar", "baz": "qux", "a": "1"], "a=1&baz=qux&foo=bar"),
            ("an integer", ["foo": 1], "foo=1"),
            ("a negative Int64", ["foo": Int64.min], "foo=-9223372036854775808"),
            ("a double", ["foo": 1.1], "foo=1.1"),
            ("a bool, numeric", ["foo": true, "bar": false], "bar=0&foo=1"),
            ("an array", ["foo": ["a", 1, true] as [any Sendable]], "foo%5B%5D=a&foo%5B%5D=1&foo%5B%5D=1"),
            ("an empty array", ["foo": [String](), "b": "1"], "b=1"),
            ("a dictionary", ["foo": ["bar": 1]], "foo%5Bbar%5D=1"),
            ("a dictionary, keys sorted", ["foo": ["z": 1, "b": 2, "m": 3]], "foo%5Bb%5D=2&foo%5Bm%5D=3&foo%5Bz%5D=1"),
            ("nested dictionaries", ["foo": ["bar": ["baz": 1]]], "foo%5Bbar%5D%5Bbaz%5D=1"),
            (
                "an array in a dictionary", ["foo": ["bar": ["a", "b"]]] as Parameters,
                "foo%5Bbar%5D%5B%5D=a&foo%5Bbar%5D%5B%5D=b"
            ),
            (
                "dictionaries in an array", ["foo": [["a": 1], ["b": 2]]] as Parameters,
                "foo%5B%5D%5Ba%5D=1&foo%5B%5D%5Bb%5D=2"
            ),
            ("Parameters nested in Parameters", ["foo": ["bar": "baz"] as Parameters], "foo%5Bbar%5D=baz"),
            ("an optional with a value", ["foo": "bar" as String?], "foo=bar"),
            ("a nil optional, left out", ["foo": nil as String?, "a": "1"], "a=1"),
            ("a doubly optional value", ["foo": Optional(Optional("bar"))], "foo=bar"),
            ("nil in an array, left out", ["foo": ["a", nil, "c"] as [String?]], "foo%5B%5D=a&foo%5B%5D=c"),
            ("any other value, as its description", ["foo": HTTPMethod.patch], "foo=PATCH"),
            ("a URL, as its description", ["u": URL(string: "https://a/b?c=d")!], "u=https%3A//a/b?c%3Dd"),
        ] as [(String, Parameters, String)])
    func theQueryIsBuiltFromTheParameters(_ name: String, parameters: Parameters, expected: String) throws {
        #expect(try Self.query(parameters) == expected, "\(name)")
    }

    @Test(
        arguments: [
            (URLEncoding.ArrayEncoding.brackets, "foo%5B%5D=a&foo%5B%5D=1"),
            (.noBrackets, "foo=a&foo=1"),
            (.indexInBrackets, "foo%5B0%5D=a&foo%5B1%5D=1"),
            (.custom { key, index in "\(key)-\(index)" }, "foo-0=a&foo-1=1"),
        ])
    func arrayEncoding(_ encoding: URLEncoding.ArrayEncoding, expected: String) throws {
        #expect(try Self.query(["foo": ["a", 1] as [any Sendable]], URLEncoding(arrayEncoding: encoding)) == expected)
    }

    @Test(arguments: [(URLEncoding.BoolEncoding.numeric, "f=0&t=1"), (.literal, "f=false&t=true")])
    func boolEncoding(_ encoding: URLEncoding.BoolEncoding, expected: String) throws {
        #expect(try Self.query(["t": true, "f": false], URLEncoding(boolEncoding: encoding)) == expected)
    }

    @Test(
        arguments: [
            ("reserved", ":#[]@!$&'()*+,;=", "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D"),
            ("unreserved", "abcXYZ019-._~", "abcXYZ019-._~"),
            ("question marks and slashes", "?/", "?/"),
            ("spaces and pluses", " + ", "%20%2B%20"),
            ("percent", "%25", "%2525"),
            ("non-Latin", "français日本語😃", "fran%C3%A7ais%E6%97%A5%E6%9C%AC%E8%AA%9E%F0%9F%98%83"),
        ])
    func keysAndValuesAreEscaped(_ name: String, raw: String, escaped: String) throws {
        #expect(try Self.query([raw: raw]) == "\(escaped)=\(escaped)", "\(name)")
        #expect(URLEncoding.default.escape(raw) == escaped)
    }

    @Test func queryComponentsArePublicAndEscaped() {
        let components = URLEncoding.default.queryComponents(fromKey: "a b", value: ["c": [1, 2]])
        #expect(components.map { "\($0)=\($1)" } == ["a%20b%5Bc%5D%5B%5D=1", "a%20b%5Bc%5D%5B%5D=2"])
    }

    @Test(arguments: EncodingFixtures.methodsAndQueryDestination)
    func methodDependentPutsTheFormInTheQueryOrTheBody(_ method: HTTPMethod, inQuery: Bool) throws {
        let encoded = try URLEncoding.default.encode(
            EncodingFixtures.request(method, "https://example.com/p?x=1"), with: ["a": 1])
        if inQuery {
            #expect(encoded.url.absoluteString == "https://example.com/p?x=1&a=1")
            #expect(encoded.body == nil && encoded.headers["Content-Type"] == nil)
        } else {
            #expect(encoded.url.absoluteString == "https://example.com/p?x=1")
            #expect(encoded.body == Data("a=1".utf8))
            #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    @Test func queryStringAndHTTPBodyIgnoreTheMethod() throws {
        let post = try URLEncoding.queryString.encode(EncodingFixtures.request(.post), with: ["a": 1])
        #expect(post.url.query() == "a=1" && post.body == nil)
        let get = try URLEncoding.httpBody.encode(EncodingFixtures.request(.get), with: ["a": 1])
        #expect(get.url.query() == nil && get.body == Data("a=1".utf8))
    }

    @Test func anExistingContentTypeIsKept() throws {
        let request = EncodingFixtures.request(.post, headers: ["Content-Type": "text/plain"])
        let encoded = try URLEncoding.default.encode(request, with: ["a": 1])
        #expect(encoded.headers.values(for: "Content-Type") == ["text/plain"])
        #expect(encoded.body == Data("a=1".utf8))
    }

    /// As in Alamofire, empty parameters for the body make an empty body, declared as a form.
    @Test func emptyParametersForTheBodyAreAnEmptyFormBody() throws {
        let encoded = try URLEncoding.httpBody.encode(EncodingFixtures.request(.post), with: [:])
        #expect(encoded.body == Data())
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    /// A custom `ParameterEncoding` reports its own failure as `customEncodingFailed`.
    @Test func aCustomEncodingFailsWithItsOwnError() {
        struct Refusing: ParameterEncoding {
            func encode(_ request: HTTPRequest, with parameters: Parameters?) throws(WickError) -> HTTPRequest {
                throw .parameterEncodingFailed(reason: .customEncodingFailed(error: CustomEncodingError()))
            }
        }
        let encoding: any ParameterEncoding = Refusing()
        #expect(
            performing: { try encoding.encode(EncodingFixtures.request(), with: [:]) },
            throws: { error in
                guard case WickError.parameterEncodingFailed(.customEncodingFailed(let cause)) = error else {
                    return false
                }
                return cause is CustomEncodingError
                    && "\(error)".hasPrefix("parameter encoding failed: the custom parameter encoding failed")
            })
    }

    @Test func failureReasonsDescribeThemselves() {
        #expect(
            "\(WickError.parameterEncodingFailed(reason: .missingURL))"
                == "parameter encoding failed: the request's URL could not be rebuilt with the encoded query")
        #expect(
            "\(WickError.parameterEncoderFailed(reason: .missingRequiredComponent(.url)))"
                == "parameter encoder failed: the request is missing the URL")
    }
}
