// Wick's errors to curl's exit codes: the one mapping, case by case.
import Testing
import Wick
import WickCLI

struct ExitCodeTests {
    private func code(_ error: WickError) -> Int32 { CommandFailure(error).code.rawValue }
    private func connect(_ kind: ConnectionFailure.Kind) -> WickError {
        .sessionTaskFailed(error: .connectionFailed(ConnectionFailure(kind: kind, description: "x")))
    }
    private func lost(_ cause: ConnectionLoss.Cause) -> WickError {
        .sessionTaskFailed(error: .connectionLost(ConnectionLoss(cause: cause, reason: "x", requestMayHaveBeenProcessed: true)))
    }

    @Test func connectFailures() {
        #expect(code(connect(.unknownHost)) == 6)
        #expect(code(connect(.resolutionFailed)) == 6)
        #expect(code(connect(.refused)) == 7)
        #expect(code(connect(.hostUnreachable)) == 7)
        #expect(code(connect(.timedOut)) == 28)
        #expect(code(connect(.tlsHandshakeFailed)) == 35)
        #expect(code(connect(.serverTrustRefused)) == 60)
        #expect(code(connect(.tlsConfigurationInvalid)) == 77)
    }

    @Test func exchangeFailures() {
        #expect(code(lost(.closedBeforeResponse)) == 52)
        #expect(code(lost(.closedDuringResponse)) == 18)
        #expect(code(lost(.reset)) == 56)
        #expect(code(lost(.tlsFailed)) == 56)
        #expect(code(lost(.writeFailed)) == 55)
        #expect(code(lost(.invalidResponse)) == 8)
        #expect(code(.sessionTaskFailed(error: .timedOut(phase: .receivingResponse, lastConnectionFailure: nil))) == 28)
        #expect(code(.sessionTaskFailed(error: .tooManyRedirects(limit: 3))) == 47)
    }

    @Test func trustFailures() {
        let untrusted = ServerTrustError(host: "h", evaluator: "e", reason: .untrusted([]))
        let pinned = ServerTrustError(host: "h", evaluator: "e", reason: .publicKeyPinningFailed(pinned: [], presented: []))
        #expect(code(.serverTrustEvaluationFailed(reason: untrusted)) == 60)
        #expect(code(.serverTrustEvaluationFailed(reason: pinned)) == 90)
    }

    @Test func otherFailures() {
        #expect(code(.invalidURL(url: "x", reason: "y")) == 3)
        #expect(code(.bodyTooLarge(limit: 1)) == 63)
        #expect(code(.requestRetryFailed(retryError: CommandFailure.usage("x"), originalError: connect(.refused))) == 7)
        #expect(CommandFailure(.httpReturnedError, "m").description == "(22) m")
        #expect(CommandFailure.usage("option -q: is unknown").description == "option -q: is unknown")
    }
}
