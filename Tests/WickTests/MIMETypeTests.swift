// Media types parsed and matched, and the validations' status and content-type rules.
import Testing

@testable import Wick

struct MIMETypeTests {
    @Test func parsesTypeSubtypeAndParameters() throws {
        let type = try #require(MIMEType(" Text/HTML ; Charset=\"UTF-8\" ;q=0.5"))
        #expect(type.type == "text")
        #expect(type.subtype == "html")
        #expect(type.parameter("charset") == "UTF-8")
        #expect(type.parameter("q") == "0.5")
        #expect(type.parameter("boundary") == nil)
        #expect(!type.isWildcard)
        #expect(try #require(MIMEType("*/*")).isWildcard)
    }

    @Test(arguments: ["", "text", "text/", "/html", "text/html/x", "te xt/html", " ; charset=utf-8"])
    func refusesWhatIsNotAMediaType(text: String) {
        #expect(MIMEType(text) == nil)
    }

    @Test(arguments: [
        ("application/json", "application/json", true),
        ("APPLICATION/JSON", "application/json; charset=utf-8", true),
        ("application/*", "application/xml", true),
        ("*/json", "application/json", true),
        ("*/*", "image/png", true),
        ("application/json", "application/xml", false),
        ("text/*", "application/json", false),
        ("*/xml", "application/json", false),
    ])
    func matchesWithWildcardsIgnoringParameters(acceptable: String, actual: String, matches: Bool) throws {
        let acceptableType = try #require(MIMEType(acceptable))
        let actualType = try #require(MIMEType(actual))
        #expect(acceptableType.matches(actualType) == matches)
    }

    @Test func statusValidationAcceptsOnlyTheGivenCodes() {
        #expect(throws: Never.self) { try DataRequest.validate(statusCode: 200, acceptable: 200..<300).get() }
        #expect(throws: Never.self) { try DataRequest.validate(statusCode: 299, acceptable: 200..<300).get() }
        let result = DataRequest.validate(statusCode: 300, acceptable: 200..<300)
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(300))) = result else {
            Issue.record("expected unacceptableStatusCode(300), got \(result)")
            return
        }
        #expect(throws: Never.self) { try DataRequest.validate(statusCode: 404, acceptable: [404, 410]).get() }
    }

    @Test func contentTypeValidationReportsTheTypeWithoutParametersAndTheSortedList() {
        let result = DataRequest.validate(
            contentType: "Text/HTML; charset=utf-8", acceptable: ["application/xml", "application/json"])
        guard case .failure(.responseValidationFailed(.unacceptableContentType(let acceptable, let actual))) = result
        else {
            Issue.record("expected unacceptableContentType, got \(result)")
            return
        }
        #expect(acceptable == ["application/json", "application/xml"])
        #expect(actual == "text/html")
        #expect(throws: Never.self) {
            try DataRequest.validate(contentType: "application/json", acceptable: ["text/*", "application/json"]).get()
        }
    }

    @Test func aMissingOrUnparsableContentTypePassesOnlyForTheFullWildcard() {
        for contentType in [nil, "garbage"] as [String?] {
            let refused = DataRequest.validate(contentType: contentType, acceptable: ["application/json"])
            guard case .failure(.responseValidationFailed(.missingContentType(["application/json"]))) = refused else {
                Issue.record("expected missingContentType, got \(refused)")
                continue
            }
            #expect(throws: Never.self) {
                try DataRequest.validate(contentType: contentType, acceptable: ["application/json", "*/*"]).get()
            }
        }
    }
}
