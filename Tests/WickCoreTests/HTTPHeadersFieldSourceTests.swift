// HTTPHeaders read from an HTTPFieldSource: the same answers as a list of strings, strings made
// only for the fields read, and every change copying the fields out first.
import Synchronization
import Testing
import WickCore

/// A source over fixed fields that counts the strings it is asked for.
private final class CountingSource: HTTPFieldSource, Sendable {
    let fields: [HTTPHeader]
    let reads = Atomic<Int>(0)

    init(_ fields: [(String, String)]) { self.fields = fields.map { HTTPHeader(name: $0.0, value: $0.1) } }

    var fieldCount: Int { fields.count }
    func field(at position: Int) -> HTTPHeader {
        reads.add(2, ordering: .relaxed)
        return fields[position]
    }
    func value(at position: Int) -> String {
        reads.add(1, ordering: .relaxed)
        return fields[position].value
    }
    func hasName(_ name: String, at position: Int) -> Bool { fields[position].name.equalsIgnoringASCIICase(name) }
}

@Suite struct HTTPHeadersFieldSourceTests {
    private let wire = [("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("ETag", "\"x\"")]

    private var eager: HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in wire { headers.add(name: name, value: value) }
        return headers
    }

    @Test func readsGiveTheSameAnswersAsAListOfStrings() {
        let source = CountingSource(wire)
        let lazy = HTTPHeaders(fieldsOf: source)
        #expect(lazy.count == 4)
        #expect(lazy["content-type"] == "text/plain")
        #expect(lazy.value(for: "missing") == nil)
        #expect(lazy.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(lazy.contains(name: "etag"))
        #expect(lazy.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie", "ETag"])
        #expect(lazy.dictionary == eager.dictionary)
        #expect(lazy.description == eager.description)
        #expect(lazy.sorted() == eager.sorted())
    }

    @Test func lookingUpOneValueMakesOneString() {
        let source = CountingSource(wire)
        let lazy = HTTPHeaders(fieldsOf: source)
        #expect(lazy["etag"] == "\"x\"")
        #expect(lazy.contains(name: "Set-Cookie"))
        #expect(source.reads.load(ordering: .relaxed) == 1)
    }

    @Test func equalityAndHashingIgnoreHowTheFieldsAreHeld() {
        let lazy = HTTPHeaders(fieldsOf: CountingSource(wire))
        #expect(lazy == eager)
        #expect(eager == lazy)
        #expect(lazy.hashValue == eager.hashValue)
        #expect(lazy != HTTPHeaders(fieldsOf: CountingSource(Array(wire.dropLast()))))
        #expect(HTTPHeaders(fieldsOf: CountingSource([])) == HTTPHeaders())
    }

    @Test func everyChangeCopiesTheFieldsOutFirstAndKeepsTheirOrder() {
        var added = HTTPHeaders(fieldsOf: CountingSource(wire))
        added.add(name: "Via", value: "1.1 proxy")
        #expect(added.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie", "ETag", "Via"])

        var updated = HTTPHeaders(fieldsOf: CountingSource(wire))
        updated.update(name: "etag", value: "\"y\"")
        #expect(updated.map(\.description) == ["Content-Type: text/plain", "Set-Cookie: a=1", "set-cookie: b=2", "etag: \"y\""])

        var removed = HTTPHeaders(fieldsOf: CountingSource(wire))
        removed["set-cookie"] = nil
        #expect(removed.map(\.name) == ["Content-Type", "ETag"])

        var sorted = HTTPHeaders(fieldsOf: CountingSource(wire))
        sorted.sort()
        #expect(sorted.map(\.name) == ["Content-Type", "ETag", "Set-Cookie", "set-cookie"])

        var reserved = HTTPHeaders(fieldsOf: CountingSource(wire))
        reserved.reserveCapacity(10)
        #expect(reserved == eager)
    }
}
