// URLEncodedFormEncoder: every option, nesting, escaping and the invalid roots (after Alamofire's URLEncodedFormEncoderTests).
import Foundation
import Testing
import Wick

struct URLEncodedFormEncoderTests {
    static let date = Date(timeIntervalSinceReferenceDate: 123.456)

    static func encoded(_ value: any Encodable, with encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) throws
        -> String
    {
        try encoder.encode(value)
    }

    // MARK: Values

    @Test(
        arguments: [
            ("String", "a" as any Encodable & Sendable, "a=a"),
            ("Int", Int(-1), "a=-1"),
            ("Int8", Int8(1), "a=1"),
            ("Int16", Int16(1), "a=1"),
            ("Int32", Int32(1), "a=1"),
            ("Int64", Int64.max, "a=9223372036854775807"),
            ("UInt", UInt(1), "a=1"),
            ("UInt8", UInt8(1), "a=1"),
            ("UInt16", UInt16(1), "a=1"),
            ("UInt32", UInt32(1), "a=1"),
            ("UInt64", UInt64.max, "a=18446744073709551615"),
            ("Double", 1.0, "a=1.0"),
            ("Float", Float(1.5), "a=1.5"),
            ("Decimal", Decimal(1), "a=1"),
            ("Decimal with high precision", Decimal(string: "1.123456")!, "a=1.123456"),
            ("Bool", true, "a=1"),
            ("URL, as its address", URL(string: "https://example.com/a?b=c")!, "a=https%3A//example.com/a?b%3Dc"),
        ] as [(String, any Encodable & Sendable, String)])
    func aScalarIsWrittenAsText(_ name: String, value: any Encodable & Sendable, expected: String) throws {
        #expect(try Self.encoded(Keyed(value)) == expected, "\(name)")
    }

    @Test func aDictionaryIsAnObject() throws {
        #expect(try Self.encoded(["a": "a"]) == "a=a")
        #expect(try Self.encoded(["b": 2, "a": 1]) == "a=1&b=2")
    }

    @Test func anEncodableStructWritesEveryMemberSortedByDefault() throws {
        #expect(
            try Self.encoded(EncodableStruct())
                == "five%5Ba%5D=a&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&seven%5Ba%5D=a"
                + "&six%5Ba%5D%5Bb%5D=b&three=1&two=2")
    }

    @Test func withoutAlphabetizingMembersKeepTheirEncodingOrder() throws {
        let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)
        #expect(
            try Self.encoded(EncodableStruct(), with: encoder)
                == "one=one&two=2&three=1&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&five%5Ba%5D=a"
                + "&six%5Ba%5D%5Bb%5D=b&seven%5Ba%5D=a")
    }

    /// Alamofire sorts an array's pairs too (`a[]=1&a[]=2&a[]=3` here); Wick keeps the order.
    @Test(arguments: [true, false])
    func anArrayKeepsItsOrder(alphabetize: Bool) throws {
        let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: alphabetize)
        #expect(try Self.encoded(["a": [3, 1, 2]], with: encoder) == "a%5B%5D=3&a%5B%5D=1&a%5B%5D=2")
        #expect(try Self.encoded(["a": ["z", "b"]], with: encoder) == "a%5B%5D=z&a%5B%5D=b")
    }

    @Test func aSubclassAndItsSuperclassShareOneObject() throws {
        #expect(try Self.encoded(EncodableSuperclass()) == "one=one&three=1&two=2")
        #expect(
            try Self.encoded(EncodableSubclass())
                == "five%5Ba%5D=a&five%5Bb%5D=b&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&three=1&two=2")
    }

    @Test func superEncodersWriteIntoTheObjectAMemberOrANewElement() throws {
        #expect(
            try Self.encoded(SuperEncoderStruct())
                == "fromSuper%5Bone%5D=3&list%5B%5D=first&list%5B%5D%5Btwo%5D=4&one=1&two=2")
    }

    @Test func nestedKeyedAndUnkeyedContainersComposeTheirKeys() throws {
        #expect(
            try Self.encoded(ManuallyNestedStruct())
                == "root%5Ba%5D%5B%5D=1&root%5Ba%5D%5B%5D%5B%5D=2&root%5Ba%5D%5B%5D%5Bb%5D=3&root%5Bb%5D=x")
        #expect(
            try Self.encoded(ManuallyNestedStruct(), with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets))
                == "root%5Ba%5D%5B0%5D=1&root%5Ba%5D%5B1%5D%5B0%5D=2&root%5Ba%5D%5B2%5D%5Bb%5D=3&root%5Bb%5D=x")
    }

    @Test func arraysOfObjectsAreKeyedByTheArrayEncoding() throws {
        let parameters = ["foo": [["bar": 2], ["qux": 3], ["quy": 4]]]
        #expect(
            try Self.encoded(parameters, with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets))
                == "foo%5B0%5D%5Bbar%5D=2&foo%5B1%5D%5Bqux%5D=3&foo%5B2%5D%5Bquy%5D=4")
        #expect(
            try Self.encoded(parameters) == "foo%5B%5D%5Bbar%5D=2&foo%5B%5D%5Bqux%5D=3&foo%5B%5D%5Bquy%5D=4")
        #expect(
            try Self.encoded(
                ["foo": [EncodableSuperclass()]], with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets))
                == "foo%5B0%5D%5Bone%5D=one&foo%5B0%5D%5Bthree%5D=1&foo%5B0%5D%5Btwo%5D=2")
    }

    @Test func emptyContainersWriteNothing() throws {
        #expect(try Self.encoded([String: String]()) == "")
        #expect(try Self.encoded(["a": [Int]()]) == "")
        #expect(try Self.encoded(["a": [String: Int]()]) == "")
        #expect(try Self.encoded(["a": [String: Int](), "b": ["c": 1]]) == "b%5Bc%5D=1")
    }

    // MARK: Invalid roots and failing values

    @Test(
        arguments: [
            ("an array", [1, 2] as any Encodable & Sendable, "an array of 2 elements"),
            ("a string", "string", "a single value (\"string\")"),
            ("an integer", 1, "a single value (\"1\")"),
            ("a date", URLEncodedFormEncoderTests.date, "a single value (\"123.456\")"),
            ("a dictionary with Double keys (encoded as an array)", [1.5: "a"], "an array of 2 elements"),
        ] as [(String, any Encodable & Sendable, String)])
    func aRootThatIsNotAKeyedContainerThrows(_ name: String, value: any Encodable & Sendable, described: String) {
        #expect(
            performing: { try Self.encoded(value) },
            throws: { error in
                guard case URLEncodedFormEncoder.Error.invalidRootObject(let object) = error else { return false }
                return object == described && "\(error)".contains("requires a keyed root object")
            })
    }

    @Test func aSecondValueInOneSingleValueContainerThrows() {
        #expect(throws: EncodingError.self) { try Self.encoded(Keyed(TwiceIntoSingleValue())) }
    }

    @Test func encodingAsDataGivesTheStringsUTF8() throws {
        let data: Data = try URLEncodedFormEncoder().encode(["a": "é b"])
        #expect(data == Data("a=%C3%A9%20b".utf8))
        #expect(throws: URLEncodedFormEncoder.Error.self) { let _: Data = try URLEncodedFormEncoder().encode([1]) }
    }

    // MARK: Options

    @Test(
        arguments: [
            (URLEncodedFormEncoder.ArrayEncoding.brackets, "array%5B%5D=1&array%5B%5D=2"),
            (.noBrackets, "array=1&array=2"),
            (.indexInBrackets, "array%5B0%5D=1&array%5B1%5D=2"),
            (.custom { key, index in "\(key).\(index + 1)" }, "array.1=1&array.2=2"),
        ])
    func arrayEncoding(_ encoding: URLEncodedFormEncoder.ArrayEncoding, expected: String) throws {
        #expect(try Self.encoded(["array": [1, 2]], with: URLEncodedFormEncoder(arrayEncoding: encoding)) == expected)
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.BoolEncoding.numeric, "no=0&yes=1"),
            (.literal, "no=false&yes=true"),
        ])
    func boolEncoding(_ encoding: URLEncodedFormEncoder.BoolEncoding, expected: String) throws {
        #expect(
            try Self.encoded(["yes": true, "no": false], with: URLEncodedFormEncoder(boolEncoding: encoding))
                == expected)
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.DataEncoding.base64, "data=ZGF0YQ%3D%3D"),
            (.deferredToData, "data%5B%5D=100&data%5B%5D=97&data%5B%5D=116&data%5B%5D=97"),
            (.custom { String(decoding: $0, as: UTF8.self).uppercased() }, "data=DATA"),
        ])
    func dataEncoding(_ encoding: URLEncodedFormEncoder.DataEncoding, expected: String) throws {
        #expect(
            try Self.encoded(["data": Data("data".utf8)], with: URLEncodedFormEncoder(dataEncoding: encoding))
                == expected)
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.DateEncoding.deferredToDate, "date=123.456"),
            (.secondsSince1970, "date=978307323.456"),
            (.millisecondsSince1970, "date=978307323456.0"),
            (.iso8601, "date=2001-01-01T00%3A02%3A03Z"),
            (
                .formatted(Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted)),
                "date=20010101T000203Z"
            ),
            (.formatted(Date.ISO8601FormatStyle().year().month().day()), "date=2001-01-01"),
            (.custom { "\($0.timeIntervalSinceReferenceDate * 2)" }, "date=246.912"),
        ])
    func dateEncoding(_ encoding: URLEncodedFormEncoder.DateEncoding, expected: String) throws {
        #expect(try Self.encoded(["date": Self.date], with: URLEncodedFormEncoder(dateEncoding: encoding)) == expected)
    }

    @Test func anErrorThrownByACustomDateOrDataEncodingFailsTheEncoding() {
        let dates = URLEncodedFormEncoder(dateEncoding: .custom { _ in throw CustomEncodingError() })
        #expect(throws: CustomEncodingError()) { try Self.encoded(["date": Self.date], with: dates) }
        let data = URLEncodedFormEncoder(dataEncoding: .custom { _ in throw CustomEncodingError() })
        #expect(throws: CustomEncodingError()) { try Self.encoded(["data": Data()], with: data) }
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.KeyEncoding.useDefaultKeys, "oneTwoThree=oneTwoThree"),
            (.convertToSnakeCase, "one_two_three=oneTwoThree"),
            (.convertToKebabCase, "one-two-three=oneTwoThree"),
            (.capitalized, "OneTwoThree=oneTwoThree"),
            (.uppercased, "ONETWOTHREE=oneTwoThree"),
            (.lowercased, "onetwothree=oneTwoThree"),
            (.custom { _ in "A" }, "A=oneTwoThree"),
        ])
    func keyEncoding(_ encoding: URLEncodedFormEncoder.KeyEncoding, expected: String) throws {
        #expect(
            try Self.encoded(["oneTwoThree": "oneTwoThree"], with: URLEncodedFormEncoder(keyEncoding: encoding))
                == expected)
    }

    @Test(
        arguments: [
            ("oneTwoThree", "one_two_three"),
            ("myURLValue", "my_url_value"),
            ("URLValue", "url_value"),
            ("myURLs", "my_ur_ls"),
            ("_oneTwo_", "_one_two_"),
            ("value1Two", "value1_two"),
            ("a", "a"),
            ("ALLCAPS", "allcaps"),
            ("", ""),
            ("naïveÉtude", "naïve_étude"),
        ])
    func snakeCaseSplitsWordsAtCaseChanges(_ key: String, expected: String) throws {
        let snake = URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)
        let escapedExpected = URLEncoding.default.escape(expected)
        #expect(try Self.encoded([key: "v"], with: snake) == "\(escapedExpected)=v")
    }

    /// The key encoding sees the whole composed key, as in Alamofire.
    @Test func keyEncodingAppliesToTheComposedKey() throws {
        let nested = ["parentKey": ["childKey": ["x"]]]
        #expect(
            try Self.encoded(nested, with: URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase))
                == "parent_key%5Bchild_key%5D%5B%5D=x")
        #expect(
            try Self.encoded(nested, with: URLEncodedFormEncoder(keyEncoding: .capitalized))
                == "ParentKey%5BchildKey%5D%5B%5D=x")
        #expect(
            try Self.encoded(nested, with: URLEncodedFormEncoder(keyEncoding: .custom { "<\($0)>" }))
                == "%3CparentKey%5BchildKey%5D%5B%5D%3E=x")
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.KeyPathEncoding.brackets, "a%5Bb%5D%5Bc%5D=d"),
            (.dots, "a.b.c=d"),
            (URLEncodedFormEncoder.KeyPathEncoding { "-\($0)" }, "a-b-c=d"),
        ])
    func keyPathEncoding(_ encoding: URLEncodedFormEncoder.KeyPathEncoding, expected: String) throws {
        #expect(
            try Self.encoded(["a": ["b": ["c": "d"]]], with: URLEncodedFormEncoder(keyPathEncoding: encoding))
                == expected)
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.NilEncoding.dropKey, "present=here", "b=1", "a%5B%5D=1&a%5B%5D=3"),
            (
                .dropValue, "bool=&double=&int=&nested=&present=here&string=", "a=&b=1",
                "a%5B%5D=1&a%5B%5D=&a%5B%5D=3"
            ),
            (
                .null, "bool=null&double=null&int=null&nested=null&present=here&string=null", "a=null&b=1",
                "a%5B%5D=1&a%5B%5D=null&a%5B%5D=3"
            ),
            (
                URLEncodedFormEncoder.NilEncoding { "-" }, "bool=-&double=-&int=-&nested=-&present=here&string=-",
                "a=-&b=1", "a%5B%5D=1&a%5B%5D=-&a%5B%5D=3"
            ),
        ])
    func nilEncoding(
        _ encoding: URLEncodedFormEncoder.NilEncoding, members: String, dictionary: String, array: String
    ) throws {
        let encoder = URLEncodedFormEncoder(nilEncoding: encoding)
        #expect(try Self.encoded(OptionalMembers(), with: encoder) == members)
        #expect(try Self.encoded(["a": nil, "b": "1"] as [String: String?], with: encoder) == dictionary)
        #expect(try Self.encoded(["a": [1, nil, 3]] as [String: [Int?]], with: encoder) == array)
    }

    @Test func everyTypedOptionalGoesThroughTheNilEncoding() throws {
        let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: false, nilEncoding: .null)
        #expect(
            try Self.encoded(AllOptionalScalars(), with: encoder)
                == "b=null&s=null&d=null&f=null&i=null&i8=null&i16=null&i32=null&i64=null"
                + "&u=null&u8=null&u16=null&u32=null&u64=null&g=null")
        #expect(try Self.encoded(AllOptionalScalars()) == "")
        var present = OptionalMembers(string: "s", int: 1, bool: true, double: 2.5, nested: NestedEncodableStruct())
        present.present = "p"
        #expect(try Self.encoded(present) == "bool=1&double=2.5&int=1&nested%5Ba%5D=a&present=p&string=s")
    }

    @Test(
        arguments: [
            (URLEncodedFormEncoder.SpaceEncoding.percentEscaped, "a%20b=c%20d%2Be"),
            (.plusReplaced, "a+b=c+d%2Be"),
        ])
    func spaceEncoding(_ encoding: URLEncodedFormEncoder.SpaceEncoding, expected: String) throws {
        #expect(try Self.encoded(["a b": "c d+e"], with: URLEncodedFormEncoder(spaceEncoding: encoding)) == expected)
    }

    @Test func allowedCharactersCanBeNarrowedOrWidened() throws {
        var narrower = URLQueryCharacterSet.afURLQueryAllowed
        narrower.remove(charactersIn: "?/")
        #expect(
            try Self.encoded(["allowed": "?/"], with: URLEncodedFormEncoder(allowedCharacters: narrower))
                == "allowed=%3F%2F")
        var wider = URLQueryCharacterSet.afURLQueryAllowed
        wider.insert(charactersIn: "@:!$'()*,;")
        #expect(
            try Self.encoded(["a": ["b": "x@y:z!$'()*,;"]], with: URLEncodedFormEncoder(allowedCharacters: wider))
                == "a%5Bb%5D=x@y:z!$'()*,;")
    }

    // MARK: Escaping

    @Test(
        arguments: [
            ("unreserved", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~", nil),
            ("reserved", ":#[]@!$&'()*+,;=", "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D"),
            ("illegal ASCII", " \"#%<>[]\\^`{}|", "%20%22%23%25%3C%3E%5B%5D%5C%5E%60%7B%7D%7C"),
            ("control characters", "\u{0}\u{1}\n\r\t\u{7F}", "%00%01%0A%0D%09%7F"),
            ("question marks and slashes", "?/bar/?", nil),
            ("percent", "%25", "%2525"),
            ("French", "français", "fran%C3%A7ais"),
            ("Japanese", "日本語", "%E6%97%A5%E6%9C%AC%E8%AA%9E"),
            ("Arabic", "العربية", "%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9"),
            ("emoji", "😃", "%F0%9F%98%83"),
        ] as [(String, String, String?)])
    func keysAndValuesAreEscaped(_ name: String, raw: String, escaped: String?) throws {
        let escaped = escaped ?? raw
        #expect(try Self.encoded(["k": raw]) == "k=\(escaped)", "\(name)")
        #expect(try Self.encoded([raw: "v"]) == "\(escaped)=v", "\(name)")
    }

    @Test func ampersandsInKeysAndValuesCannotSplitAPair() throws {
        #expect(try Self.encoded(["foo&bar": "baz&qux", "foobar": "bazqux"]) == "foo%26bar=baz%26qux&foobar=bazqux")
    }

    @Test func thousandsOfChineseCharactersAreEscaped() throws {
        let count = 2000
        let value = String(repeating: "一二三四五六七八九十", count: count)
        let escaped = String(
            repeating: "%E4%B8%80%E4%BA%8C%E4%B8%89%E5%9B%9B%E4%BA%94%E5%85%AD%E4%B8%83%E5%85%AB%E4%B9%9D%E5%8D%81",
            count: count)
        #expect(try Self.encoded(["chinese": value]) == "chinese=\(escaped)")
    }

    @Test func aLongArrayEncodesInOrder() throws {
        let values = Array(0..<10_000)
        let expected = values.map { "a%5B%5D=\($0)" }.joined(separator: "&")
        #expect(try Self.encoded(["a": values]) == expected)
    }
}
