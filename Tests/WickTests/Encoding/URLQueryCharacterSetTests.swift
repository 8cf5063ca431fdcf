// URLQueryCharacterSet: its two presets, edits, and the trap for characters a query cannot hold.
import Testing
import Wick

struct URLQueryCharacterSetTests {
    static let ascii = (0..<128).map { Unicode.Scalar(UInt8($0)) }

    @Test func afURLQueryAllowedIsUnreservedPlusQuestionMarkAndSlash() {
        let allowed = Self.ascii.filter { URLQueryCharacterSet.afURLQueryAllowed.contains($0) }
        #expect(
            String(String.UnicodeScalarView(allowed))
                == "-./0123456789?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    }

    @Test func urlQueryAllowedIsWhatRFC3986AllowsInAQuery() {
        let allowed = Self.ascii.filter { URLQueryCharacterSet.urlQueryAllowed.contains($0) }
        #expect(
            String(String.UnicodeScalarView(allowed))
                == "!$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    }

    @Test func nonASCIIIsNeverAllowed() {
        #expect(!URLQueryCharacterSet.urlQueryAllowed.contains("é"))
        var set = URLQueryCharacterSet.afURLQueryAllowed
        set.remove(charactersIn: "é")
        #expect(set == .afURLQueryAllowed)
    }

    @Test func aSetCanBeBuiltAndEdited() {
        var set = URLQueryCharacterSet(charactersIn: "ab")
        #expect(set.contains("a") && set.contains("b") && !set.contains("c"))
        set.insert(charactersIn: "~@")
        set.remove(charactersIn: "a")
        #expect(!set.contains("a") && set.contains("~") && set.contains("@"))
        #expect(URLQueryCharacterSet(charactersIn: "") != .afURLQueryAllowed)
    }

    /// Characters RFC 3986 does not allow in a query would make an invalid URL (and trap in
    /// `URLComponents`); the set refuses them where they are added.
    @Test(arguments: ["[", "]", "#", " ", "%", "\"", "é"])
    func insertingACharacterAQueryCannotHoldTraps(_ character: String) async {
        await #expect(processExitsWith: .failure) { [character] in
            var set = URLQueryCharacterSet.afURLQueryAllowed
            set.insert(charactersIn: character)
        }
    }
}
