// HTTPMethod's RFC 9110 properties and HTTPStatus's classes.
import Testing
import WickCore

@Suite struct HTTPMethodAndStatusTests {
    @Test func idempotencyFollowsRFC9110() {
        #expect([HTTPMethod.get, .head, .options, .trace, .put, .delete].allSatisfy { $0.isIdempotent })
        #expect(![HTTPMethod.post, .patch, .connect].contains { $0.isIdempotent })
        #expect(!HTTPMethod(rawValue: "get").isIdempotent)  // methods are case-sensitive
    }

    @Test func statusesThatForbidABody() {
        #expect(HTTPStatus(rawValue: 100).forbidsBody)
        #expect(HTTPStatus.noContent.forbidsBody)
        #expect(HTTPStatus.notModified.forbidsBody)
        #expect(!HTTPStatus.ok.forbidsBody)
        #expect(HTTPStatus(rawValue: 799).kind == .unknown)
    }
}
