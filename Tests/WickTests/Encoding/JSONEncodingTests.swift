// JSONEncoding of a Parameters dictionary or JSON object, checked against JSONEncoder's text (after Alamofire's JSONParameterEncodingTestCase).
import Foundation
import Testing
import Wick

struct JSONEncodingTests {
    static func body(_ parameters: Parameters, _ encoding: JSONEncoding = JSONEncoding(options: .sortedKeys)) throws
        -> String?
    {
        try encoding.encode(EncodingFixtures.request(.post), with: parameters).body.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// What `JSONEncoder` writes for `value` with `formatting`: the reference for Wick's writer.
    static func reference(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting = .sortedKeys) throws
        -> String
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func nilParametersLeaveTheRequestUnchanged() throws {
        let request = EncodingFixtures.request(.post)
        let encoded = try JSONEncoding.default.encode(request, with: nil)
        #expect(encoded.body == nil && encoded.headers.isEmpty)
        #expect(try JSONEncoding.default.encode(request, withJSONObject: nil).body == nil)
    }

    @Test func emptyParametersAreAnEmptyObject() throws {
        let encoded = try JSONEncoding.default.encode(EncodingFixtures.request(.post), with: [:])
        #expect(encoded.body == Data("{}".utf8))
        #expect(encoded.headers["Content-Type"] == "application/json")
    }

    /// JSON always goes in the body, whatever the method; the URL is untouched.
    @Test(arguments: EncodingFixtures.methodsAndQueryDestination.map(\.0))
    func theBodyIsUsedForEveryMethod(_ method: HTTPMethod) throws {
        let request = EncodingFixtures.request(method, "https://example.com/p?x=1")
        let encoded = try JSONEncoding.default.encode(request, with: ["a": 1])
        #expect(encoded.body == Data(#"{"a":1}"#.utf8) && encoded.url == request.url)
    }

    @Test func anExistingContentTypeIsKept() throws {
        let request = EncodingFixtures.request(.post, headers: ["Content-Type": "application/vnd.api+json"])
        let encoded = try JSONEncoding.default.encode(request, with: ["a": 1])
        #expect(encoded.headers.values(for: "Content-Type") == ["application/vnd.api+json"])
    }

    @Test func complexParametersMatchJSONEncoder() throws {
        let parameters: Parameters = [
            "foo": "bar", "baz": ["a", 1, true] as [any Sendable],
            "qux": ["a": 1, "b": [2, 3], "c": ["d": 1.5]] as [String: any Sendable],
        ]
        #expect(try Self.body(parameters) == #"{"baz":["a",1,true],"foo":"bar","qux":{"a":1,"b":[2,3],"c":{"d":1.5}}}"#)
    }

    @Test func prettyPrintingMatchesJSONEncoder() throws {
        let parameters: Parameters = ["b": [1, 2], "a": ["c": "d"], "e": [Int](), "f": [String: Int]()]
        let expected =
            "{\n  \"a\" : {\n    \"c\" : \"d\"\n  },\n  \"b\" : [\n    1,\n    2\n  ],\n  \"e\" : [],\n  \"f\" : {}\n}"
        #expect(try Self.body(parameters, JSONEncoding(options: [.prettyPrinted, .sortedKeys])) == expected)
        #expect(try Self.body(["a": 1], .prettyPrinted) == "{\n  \"a\" : 1\n}")
        #expect(
            try Self.reference(["b": [1, 2]], [.prettyPrinted, .sortedKeys]) == "{\n  \"b\" : [\n    1,\n    2\n  ]\n}")
    }

    @Test(
        arguments: [
            "plain", "quote \" and backslash \\", "slash /", "newline \n return \r tab \t",
            "backspace \u{8} form feed \u{C}", "controls \u{0}\u{1}\u{1F}", "delete \u{7F}", "français 日本語 😃",
        ])
    func stringsAreEscapedAsJSONEncoderDoes(_ string: String) throws {
        #expect(try Self.body(["k": string]) == Self.reference(["k": string]))
    }

    @Test func slashesCanBeLeftUnescaped() throws {
        #expect(try Self.body(["k": "a/b"], JSONEncoding(options: .withoutEscapingSlashes)) == #"{"k":"a/b"}"#)
    }

    @Test(arguments: [
        0.0, -0.0, 1.0, -1.5, 0.1, 1e20, 1e-7, 123456789012345678.0, 1.5e300, Double.leastNonzeroMagnitude,
    ])
    func doublesAreWrittenAsJSONEncoderDoes(_ value: Double) throws {
        #expect(try Self.body(["k": value]) == Self.reference(["k": value]))
    }

    @Test func everyIntegerTypeAndFloatAndDecimalAreNumbers() throws {
        let parameters: Parameters = [
            "i8": Int8.min, "i16": Int16.max, "i32": Int32(-3), "i64": Int64.max, "u": UInt.max, "u8": UInt8(255),
            "u16": UInt16(1), "u32": UInt32(2), "u64": UInt64.max, "f": Float(0.5), "d": Decimal(string: "1.10")!,
        ]
        #expect(
            try Self.body(parameters)
                == #"{"d":1.1,"f":0.5,"i16":32767,"i32":-3,"i64":9223372036854775807,"i8":-128,"#
                + #""u":18446744073709551615,"u16":1,"u32":2,"u64":18446744073709551615,"u8":255}"#)
    }

    @Test func nilIsNull() throws {
        #expect(try Self.body(["a": nil as Int?, "b": [1, nil] as [Int?]]) == #"{"a":null,"b":[1,null]}"#)
    }

    @Test func aTopLevelArrayIsAllowedThroughWithJSONObject() throws {
        let encoded = try JSONEncoding.default.encode(
            EncodingFixtures.request(.post), withJSONObject: [1, "a"] as [any Sendable])
        #expect(encoded.body == Data(#"[1,"a"]"#.utf8))
        #expect(encoded.headers["Content-Type"] == "application/json")
        let object = try JSONEncoding.default.encode(EncodingFixtures.request(.post), withJSONObject: ["a": 1])
        #expect(object.body == Data(#"{"a":1}"#.utf8))
    }

    @Test(
        arguments: [
            ("a string", "a" as any Sendable, "String"),
            ("a number", 1, "Int"),
            ("an optional number", Optional(1), "Int"),
        ] as [(String, any Sendable, String)])
    func aTopLevelValueThatIsNotAnArrayOrObjectFails(_ name: String, object: any Sendable, type: String) {
        #expect(
            performing: { try JSONEncoding.default.encode(EncodingFixtures.request(.post), withJSONObject: object) },
            throws: { error in
                guard case WickError.parameterEncodingFailed(.jsonEncodingFailed(let cause)) = error,
                    case JSONEncoding.Error.invalidTopLevelObject(let found) = cause
                else { return false }
                return found == type && "\(error)".hasSuffix("a JSON body must be an array or an object, not \(type)")
            })
    }

    @Test(
        arguments: [
            ("NaN", ["a": ["b": [1, Double.nan]]] as Parameters, "the number at $.a.b[1] is NaN or infinite"),
            ("infinity", ["a": Double.infinity], "the number at $.a is NaN or infinite"),
            ("a Float NaN", ["a": Float.nan], "the number at $.a is NaN or infinite"),
            ("a Decimal NaN", ["a": Decimal.nan], "the number at $.a is NaN or infinite"),
            ("a Date", ["a": [Date(timeIntervalSince1970: 0)]], "the value at $.a[0] (Date) cannot be written as JSON"),
            ("a struct", ["s": TestParameters.default], "the value at $.s (TestParameters) cannot be written as JSON"),
        ] as [(String, Parameters, String)])
    func aValueJSONCannotRepresentFailsNamingWhere(_ name: String, parameters: Parameters, message: String) {
        #expect(
            performing: { try JSONEncoding.default.encode(EncodingFixtures.request(.post), with: parameters) },
            throws: { error in
                guard case WickError.parameterEncodingFailed(.jsonEncodingFailed(let cause)) = error,
                    cause is JSONEncoding.Error
                else { return false }
                return "\(error)".contains(message)
            })
    }
}
