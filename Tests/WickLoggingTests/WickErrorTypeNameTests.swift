// WickError.typeName: bounded names for labels, never a message or a URL.
import Testing
import Wick

@Suite struct WickErrorTypeNameTests {
    @Test func transportFailuresAreNamedByTheirKind() {
        let timedOut = WickError.sessionTaskFailed(error: .timedOut(phase: .connect, lastConnectionFailure: nil))
        #expect(timedOut.typeName == "timedOut")
        #expect(WickError.sessionTaskFailed(error: .tooManyRedirects(limit: 3)).typeName == "tooManyRedirects")
    }

    @Test func otherErrorsAreNamedByTheirCaseWithoutTheirDetails() {
        #expect(WickError.invalidURL(url: "http://secret@host/", reason: "bad").typeName == "invalidURL")
        #expect(WickError.bodyTooLarge(limit: 10).typeName == "bodyTooLarge")
        #expect(WickError.conversionFailed(reason: .invalidMethod("G T")).typeName == "conversionFailed")
    }

    @Test func aRefusedRetryIsNamedByTheErrorItRetried() {
        struct GaveUp: Error {}
        let error = WickError.requestRetryFailed(retryError: GaveUp(), originalError: .explicitlyCancelled)
        #expect(error.typeName == "explicitlyCancelled")
    }
}
