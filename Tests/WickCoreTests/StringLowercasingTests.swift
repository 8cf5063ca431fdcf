// `lowercasedIfNeeded()`: the same result as `lowercased()`, the string itself when nothing changes.
import Testing
import WickCore

@Suite struct StringLowercasingTests {
    @Test(arguments: ["example.com", "Example.COM", "127.0.0.1", "::1", "ÉCOLE.fr", "straße.de", "", "A", "z[]@"])
    func matchesLowercased(_ host: String) {
        #expect(host.lowercasedIfNeeded() == host.lowercased())
    }
}
