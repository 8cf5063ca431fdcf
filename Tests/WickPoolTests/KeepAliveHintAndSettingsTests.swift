// The Keep-Alive header parser (untrusted input) and the settings' defaults and backoff curve.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("Keep-Alive hints")
struct KeepAliveHintTests {
    @Test("timeout= and max= are read, in any case and order, with spaces and tabs around them")
    func parsesBothParameters() {
        #expect(
            KeepAliveHint(headerValue: "timeout=5, max=100")
                == KeepAliveHint(timeout: .seconds(5), maximumRequests: 100))
        #expect(
            KeepAliveHint(headerValue: " MAX = 3 ,\tTimeout=0") == KeepAliveHint(timeout: .zero, maximumRequests: 3))
    }

    @Test(
        "Malformed or unknown parts are ignored, never an error",
        arguments: [
            "", "timeout", "timeout=", "timeout=-1", "timeout=5s", "timeout=0x10", "foo=1", ",,,", "max=1.5",
            "timeout==5",
        ]
    )
    func ignoresMalformedParts(value: String) {
        #expect(KeepAliveHint(headerValue: value) == KeepAliveHint())
    }

    @Test("A repeated parameter keeps its first value")
    func firstValueWins() {
        #expect(KeepAliveHint(headerValue: "max=2, max=9").maximumRequests == 2)
    }

    @Test("Huge numbers are clamped to largestValue instead of overflowing")
    func hugeNumbersClamp() {
        let hint = KeepAliveHint(headerValue: "timeout=99999999999999999999999999, max=99999999999999999999999")
        #expect(hint.timeout == .seconds(KeepAliveHint.largestValue))
        #expect(hint.maximumRequests == KeepAliveHint.largestValue)
    }
}

@Suite("Pool settings")
struct PoolSettingsTests {
    @Test("The defaults are the documented ones")
    func defaults() {
        let settings = PoolSettings()
        #expect(settings.maximumConnectionsPerOrigin == 8)
        #expect(settings.maximumIdleConnectionsPerOrigin == 8)
        #expect(settings.idleTimeout == .seconds(60))
        #expect(settings.maximumConnectionLifetime == .seconds(600))
        #expect(settings.maximumRequestsPerConnection == nil)
        #expect(settings.poolWaitTimeout == .seconds(30))
        #expect(settings.keepAliveTimeoutMargin == .seconds(1))
        #expect(settings.initialBackoff == .milliseconds(100))
        #expect(settings.maximumBackoff == .seconds(10))
    }

    @Test("Backoff doubles after each consecutive failure and stops at maximumBackoff")
    func backoffCurve() {
        let settings = PoolSettings()
        let delays = (1...9).map { settings.backoff(afterConsecutiveFailures: $0) }
        #expect(delays == [100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000].map { Duration.milliseconds($0) })
        #expect(settings.backoff(afterConsecutiveFailures: 10_000) == .seconds(10))
    }
}
