// The JSON parser: RFC 8259's grammar accepted exactly, everything else refused with its reason
// and byte, hostile nesting bounded, and random damage never crashing it.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

private func parse(_ text: String) throws(JSONParsingError) -> JSONValue {
    try JSONParser.parse(Data(text.utf8))
}

struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        (" false ", .bool(false)),
        ("0", .integer(0)),
        ("-0", .double(-0.0)),
        ("42", .integer(42)),
        ("-9223372036854775808", .integer(.min)),
        ("9223372036854775807", .integer(.max)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("1.5", .double(1.5)),
        ("-0.25e2", .double(-25)),
        ("1E-2", .double(0.01)),
        ("2e+3", .double(2000)),
        ("\"\"", .string("")),
        ("\"caf\u{E9} \u{1F600}\"", .string("caf\u{E9} \u{1F600}")),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{08}\u{0C}\n\r\t")),
        (#""\u00e9\u20AC\ud83d\ude00""#, .string("\u{E9}\u{20AC}\u{1F600}")),
        (#""a\u0000b""#, .string("a\u{0}b")),
        ("[]", .array([])),
        ("[ 1 , [ ] , { } ]", .array([.integer(1), .array([]), .object([:])])),
        ("{}", .object([:])),
        (#"{"a":1,"b":[true,null],"c":{"d":"e"}}"#,
            .object(["a": .integer(1), "b": .array([.bool(true), .null]), "c": .object(["d": .string("e")])])),
        (#"{"k":1,"k":2}"#, .object(["k": .integer(2)])),
        ("\u{FEFF}[1]", .array([.integer(1)])),
        ("\t\r\n [1] \n", .array([.integer(1)])),
    ])
    func validTextsParse(_ text: String, _ expected: JSONValue) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: [
        ("", JSONParsingError.Reason.unexpectedEnd, 0),
        ("   ", .unexpectedEnd, 3),
        ("[1,]", .unexpectedByte(UInt8(ascii: "]")), 3),
        ("{\"a\":1,}", .unexpectedByte(UInt8(ascii: "}")), 7),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2")), 3),
        ("{'a':1}", .unexpectedByte(UInt8(ascii: "'")), 1),
        ("{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1")), 5),
        ("{1:2}", .unexpectedByte(UInt8(ascii: "1")), 1),
        ("[1] x", .trailingContent, 4),
        ("1 2", .trailingContent, 2),
        ("01", .invalidNumber, 0),
        ("-", .invalidNumber, 0),
        ("-a", .invalidNumber, 0),
        ("1.", .invalidNumber, 0),
        (".5", .unexpectedByte(UInt8(ascii: ".")), 0),
        ("1e", .invalidNumber, 0),
        ("1e+", .invalidNumber, 0),
        ("+1", .unexpectedByte(UInt8(ascii: "+")), 0),
        ("1e999", .invalidNumber, 0),
        ("NaN", .unexpectedByte(UInt8(ascii: "N")), 0),
        ("tru", .unexpectedEnd, 3),
        ("nul1", .unexpectedByte(UInt8(ascii: "1")), 3),
        ("\"abc", .unexpectedEnd, 4),
        ("\"a\\", .unexpectedEnd, 3),
        ("\"a\nb\"", .unescapedControlCharacter, 2),
        (#""\x""#, .invalidEscape, 1),
        (#""\u12""#, .invalidEscape, 1),
        (#""\u12G4""#, .invalidEscape, 1),
        (#""\ud83d""#, .unpairedSurrogate, 1),
        (#""\ud83d\u0041""#, .unpairedSurrogate, 1),
        (#""\ude00""#, .unpairedSurrogate, 1),
        ("[1, // comment\n 2]", .unexpectedByte(UInt8(ascii: "/")), 4),
    ])
    func invalidTextsAreRefusedWithTheirReasonAndByte(_ text: String, _ reason: JSONParsingError.Reason, _ offset: Int) {
        #expect(throws: JSONParsingError(reason, at: offset)) { try parse(text) }
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        let latin1 = Data([0x22, 0x63, 0x61, 0x66, 0xE9, 0x22])  // "café" in ISO-8859-1
        #expect(throws: JSONParsingError(.invalidUTF8, at: 1)) { try JSONParser.parse(latin1) }
        let afterEscape = Data([0x22, 0x5C, 0x6E, 0xFF, 0x22])
        #expect(throws: JSONParsingError(.invalidUTF8, at: 3)) { try JSONParser.parse(afterEscape) }
    }

    @Test func nestingIsBoundedWithoutExhaustingTheStack() throws {
        let limit = JSONParser.defaultMaximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try parse(deepest)[0] != nil)
        // A hostile document a million levels deep fails at the limit, not with a crash.
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParsingError(.tooDeep(limit: limit), at: limit)) { try parse(hostile) }
        let objects = String(repeating: #"{"a":"#, count: 600)
        #expect(throws: JSONParsingError(.tooDeep(limit: 100), at: 500)) {
            try JSONParser.parse(Data(objects.utf8), maximumDepth: 100)
        }
    }

    /// Negative zero keeps its sign through printing and parsing (a case the fuzzer found:
    /// `-0E-2` printed as `-0`, which then read back as the integer 0).
    @Test func negativeZeroPrintsAndParsesBackToItself() throws {
        for text in ["-0E-2", "-0", "-0.0", "[-0]"] {
            let printed = try parse(text).description
            #expect(try parse(printed).description == printed)
            #expect(printed.contains("-0"))
        }
    }

    @Test func descriptionIsCompactSortedJSONThatParsesBackToTheSameValue() throws {
        let value = try parse(#"{"b":[1,2.5,"x\"y\n",null,false],"a":{"z":{}},"c":"a/b"}"#)
        #expect(value.description == #"{"a":{"z":{}},"b":[1,2.5,"x\"y\n",null,false],"c":"a/b"}"#)
        #expect(try parse(value.description) == value)
    }

    @Test func accessorsReadTheValue() throws {
        let value = try parse(#"{"id":12345678901234,"name":"n","ok":true,"ratio":0.5,"list":[3],"nothing":null}"#)
        #expect(value["id"]?.integerValue == 12_345_678_901_234)
        #expect(value["name"]?.stringValue == "n")
        #expect(value["ok"]?.boolValue == true)
        #expect(value["ratio"]?.doubleValue == 0.5)
        #expect(value["list"]?[0]?.integerValue == 3)
        #expect(value["list"]?[1] == nil)
        #expect(value["nothing"]?.isNull == true)
        #expect(value["missing"] == nil && value[0] == nil)
        let any = try #require(value.anyValue as? [String: Any])
        #expect(any["id"] as? Int64 == 12_345_678_901_234 && any["name"] as? String == "n")
        #expect((any["list"] as? [Any])?.first as? Int64 == 3)
    }

    /// Random damage to valid documents: every outcome is a value or a `JSONParsingError` whose
    /// offset lies within the input, never a crash; what parses prints as JSON that parses and
    /// prints the same (a double such as -2500.0 prints as `-2500` and reads back as an integer,
    /// so the texts are compared, not the values).
    @Test(arguments: 0..<8)
    func randomDamageNeverCrashes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let documents = [
            #"{"a":[1,-2.5e3,true,false,null,"\u00e9\ud83d\ude00"],"b":{"c":"d\n"}}"#,
            #"[[[[{"x":[0.1,{"y":""}]}]]]]"#,
            "  \"caf\u{E9}\"  ",
        ]
        for _ in 0..<2_000 {
            var bytes = Array(documents[Int.random(in: 0..<documents.count, using: &random)].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: index)
                default: bytes.insert(Array(#"[]{}",:"\0-e."#.utf8).randomElement(using: &random)!, at: index)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            do {
                let text = try JSONParser.parse(Data(bytes)).description
                #expect(try JSONParser.parse(Data(text.utf8)).description == text)
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
    }
}
