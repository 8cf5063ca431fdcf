// RFC 6797 §6.1: the Strict-Transport-Security grammar, with the RFC's own examples (§6.2).
import Testing
@testable import Wick

struct StrictTransportSecurityTests {
    @Test func theRFCsExamples() {
        // §6.2.
        #expect(StrictTransportSecurity("max-age=31536000") == StrictTransportSecurity(maxAge: 31_536_000, includesSubdomains: false))
        #expect(StrictTransportSecurity("max-age=15768000 ; includeSubDomains") == StrictTransportSecurity(maxAge: 15_768_000, includesSubdomains: true))
        #expect(StrictTransportSecurity("max-age=\"31536000\"") == StrictTransportSecurity(maxAge: 31_536_000, includesSubdomains: false))
        #expect(StrictTransportSecurity("max-age=0") == StrictTransportSecurity(maxAge: 0, includesSubdomains: false))
        #expect(StrictTransportSecurity("max-age=0; includeSubDomains")?.maxAge == 0)
    }

    @Test func directiveNamesAreCaseInsensitiveAndOrderFree() {
        // §6.1 rule 2.
        #expect(StrictTransportSecurity("INCLUDESUBDOMAINS; Max-Age=5") == StrictTransportSecurity(maxAge: 5, includesSubdomains: true))
    }

    @Test func maxAgeIsRequired() {
        // §6.1.1: "The REQUIRED "max-age" directive".
        #expect(StrictTransportSecurity("includeSubDomains") == nil)
        #expect(StrictTransportSecurity("") == nil)
        #expect(StrictTransportSecurity("max-age=") == nil)
        #expect(StrictTransportSecurity("max-age=soon") == nil)
        #expect(StrictTransportSecurity("max-age=-1") == nil)
    }

    @Test func aRepeatedDirectiveInvalidatesTheField() {
        // §6.1 rule 2: "All directives MUST appear only once"; the UA ignores such a field (§8.1).
        #expect(StrictTransportSecurity("max-age=5; max-age=6") == nil)
        #expect(StrictTransportSecurity("max-age=5; includeSubDomains; includesubdomains") == nil)
    }

    @Test func unknownDirectivesAndEmptyOnesAreIgnored() {
        // §6.1 rule 3, and the grammar's empty directives between semicolons.
        #expect(StrictTransportSecurity("max-age=5;; preload; foo=\"bar\";") == StrictTransportSecurity(maxAge: 5, includesSubdomains: false))
    }

    @Test func includeSubDomainsTakesNoValue() {
        #expect(StrictTransportSecurity("max-age=5; includeSubDomains=yes") == nil)
    }

    @Test func theLengthIsBoundedAtTheLimitAndNotPastIt() {
        let padding = String(repeating: " ", count: StrictTransportSecurity.maximumFieldBytes - "max-age=5".utf8.count)
        #expect(StrictTransportSecurity("max-age=5" + padding) != nil)
        #expect(StrictTransportSecurity("max-age=5" + padding + " ") == nil)
    }
}
