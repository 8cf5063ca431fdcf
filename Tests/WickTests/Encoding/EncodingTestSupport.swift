// Requests and Encodable fixtures shared by the parameter encoding tests.
import Foundation
import Wick

enum EncodingFixtures {
    /// A request with no body, the given method, URL and headers.
    static func request(
        _ method: HTTPMethod = .get, _ url: String = "https://example.com/path", headers: HTTPHeaders = [:]
    ) -> HTTPRequest {
        HTTPRequest(method: method, url: URL(string: url)!, headers: headers, body: nil)
    }

    /// Every method Wick names, with whether a `.methodDependent` destination puts parameters in the query.
    static let methodsAndQueryDestination: [(HTTPMethod, Bool)] = [
        (.get, true), (.head, true), (.delete, true),
        (.post, false), (.put, false), (.patch, false), (.options, false), (.trace, false), (.connect, false),
        (.query, false),
    ]
}

/// `{"property": "property"}`, Alamofire's `TestParameters.default`.
struct TestParameters: Encodable, Sendable {
    static let `default` = TestParameters(property: "property")
    let property: String
}

/// One member `a` holding any value, so a scalar can be encoded under a key.
struct Keyed: Encodable, Sendable {
    let a: any Encodable & Sendable

    init(_ a: any Encodable & Sendable) { self.a = a }

    private enum Key: String, CodingKey { case a }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(a, forKey: .a)
    }
}

/// Alamofire's `EncodableStruct`: scalars, an array, dictionaries and a nested struct.
struct EncodableStruct: Encodable, Sendable {
    var one = "one"
    var two = 2
    var three = true
    var four = [1, 2, 3]
    var five = ["a": "a"]
    var six = ["a": ["b": "b"]]
    var seven = NestedEncodableStruct()
}

struct NestedEncodableStruct: Encodable, Sendable {
    var a = "a"
}

/// Alamofire's `EncodableSuperclass` and `EncodableSubclass`: the subclass calls `super.encode`
/// on the same encoder, so both sets of members land in one object.
class EncodableSuperclass: Encodable, @unchecked Sendable {
    let one = "one"
    let two = 2
    let three = true
}

final class EncodableSubclass: EncodableSuperclass, @unchecked Sendable {
    let four = [1, 2, 3]
    let five = ["a": "a", "b": "b"]

    private enum CodingKeys: String, CodingKey { case four, five }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(four, forKey: .four)
        try container.encode(five, forKey: .five)
    }
}

/// Uses `superEncoder()` (the same object) and `superEncoder(forKey:)` (a member), and a
/// `superEncoder()` of an unkeyed container (a new element).
struct SuperEncoderStruct: Encodable, Sendable {
    private enum Keys: String, CodingKey { case one, two, list, fromSuper }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("1", forKey: .one)
        var sameObject = container.superEncoder().container(keyedBy: Keys.self)
        try sameObject.encode("2", forKey: .two)
        var member = container.superEncoder(forKey: .fromSuper).container(keyedBy: Keys.self)
        try member.encode("3", forKey: .one)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode("first")
        var element = list.superEncoder().container(keyedBy: Keys.self)
        try element.encode("4", forKey: .two)
    }
}

/// Nested keyed and unkeyed containers written by hand.
struct ManuallyNestedStruct: Encodable, Sendable {
    private enum Keys: String, CodingKey { case root, a, b }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var root = container.nestedContainer(keyedBy: Keys.self, forKey: .root)
        var a = root.nestedUnkeyedContainer(forKey: .a)
        try a.encode(1)
        var nestedArray = a.nestedUnkeyedContainer()
        try nestedArray.encode(2)
        var nestedObject = a.nestedContainer(keyedBy: Keys.self)
        try nestedObject.encode(3, forKey: .b)
        try root.encode("x", forKey: .b)
    }
}

/// Encodes two values into one single-value container, which must fail.
struct TwiceIntoSingleValue: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(1)
        try container.encode(2)
    }
}

/// Optional properties, encoded through `encodeIfPresent` by the synthesised conformance.
struct OptionalMembers: Encodable, Sendable {
    var string: String? = nil
    var int: Int? = nil
    var bool: Bool? = nil
    var double: Double? = nil
    var nested: NestedEncodableStruct? = nil
    var present = "here"
}

/// Every typed `encodeIfPresent` overload, each given nil, plus the generic one.
struct AllOptionalScalars: Encodable, Sendable {
    var b: Bool? = nil, s: String? = nil, d: Double? = nil, f: Float? = nil
    var i: Int? = nil, i8: Int8? = nil, i16: Int16? = nil, i32: Int32? = nil, i64: Int64? = nil
    var u: UInt? = nil, u8: UInt8? = nil, u16: UInt16? = nil, u32: UInt32? = nil, u64: UInt64? = nil
    var g: NestedEncodableStruct? = nil
}

/// An error a custom encoding closure throws.
struct CustomEncodingError: Error, Equatable {}
