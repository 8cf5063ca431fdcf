// HostCookieList on its own: the path filter over rendered cookies, the field's bytes, the reuse
// of the last field for the same path, and the send times it records for the jar.
import Foundation
import Testing

@testable import Wick

struct HostCookieListTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A list of four cookies in field order, located by their numbers.
    static func list() -> HostCookieList<Int> {
        var list = HostCookieList<Int>()
        list.append(0, path: "/a/b", name: "deep", value: "1")
        list.append(1, path: "/a", name: "", value: "nameless")
        list.append(2, path: "/b", name: "other", value: "2")
        list.append(3, path: "/", name: "root", value: "3")
        return list
    }

    @Test(arguments: [
        ("/a/b/c", "deep=1; nameless; root=3"),
        ("/a/b", "deep=1; nameless; root=3"),
        ("/a", "nameless; root=3"),
        ("/ab", "root=3"),
        ("/b", "other=2; root=3"),
        ("", "root=3"),
        ("/", "root=3"),
    ])
    func theFieldIsTheCookiesWhosePathsMatchInListOrder(path: String, expected: String) {
        var list = Self.list()
        #expect(list.field(forPath: path.utf8.span, at: Self.t0) == expected)
    }

    @Test func noMatchingPathGivesNoField() {
        var list = HostCookieList<Int>()
        list.append(0, path: "/only", name: "a", value: "1")
        #expect(list.field(forPath: "/other".utf8.span, at: Self.t0) == nil)
        list.foldLastField()
        #expect(list.sendTimes == [nil])
    }

    @Test func aFieldMarksItsCookiesSentAndForgettingClearsThem() {
        var list = Self.list()
        _ = list.field(forPath: "/a".utf8.span, at: Self.t0)
        _ = list.field(forPath: "/b".utf8.span, at: Self.t0 + 1)
        // The same path again: only the last field's time moves.
        _ = list.field(forPath: "/b".utf8.span, at: Self.t0 + 2)
        list.foldLastField()
        #expect(list.sendTimes == [nil, Self.t0, Self.t0 + 2, Self.t0 + 2])
        list.forgetSendTimes()
        #expect(list.sendTimes == [nil, nil, nil, nil])
    }

    @Test func theSamePathGetsTheSameStringAndAnotherPathANewOne() {
        var list = Self.list()
        let first = list.field(forPath: "/a/x".utf8.span, at: Self.t0)
        let again = list.field(forPath: "/a/x".utf8.span, at: Self.t0 + 1)
        #expect(first == "nameless; root=3")
        #expect(again == first)
        // The same storage, not a string built again.
        #expect(
            first?.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
                == again?.utf8.withContiguousStorageIfAvailable { $0.baseAddress })
        #expect(list.field(forPath: "/b".utf8.span, at: Self.t0 + 2) == "other=2; root=3")
        // A cookie added after a field: the next field is built anew even for the same path.
        list.append(4, path: "/", name: "new", value: "4")
        #expect(list.field(forPath: "/b".utf8.span, at: Self.t0 + 3) == "other=2; root=3; new=4")
        list.removeAll()
        #expect(list.field(forPath: "/b".utf8.span, at: Self.t0 + 4) == nil)
    }
}
