// Proxies that misbehave during CONNECT: each failure is a specific error, promptly, never a hang.
import Foundation
import Testing
import WickCore
import WickTLS
import WickTestSupport

@testable import Wick

struct ProxyFaultTests {
    /// The https request's failure through a proxy that answers CONNECT with `behavior`. The
    /// origin is never reached, so none needs to run.
    static func failure(through behavior: TestProxy.ConnectBehavior) async throws -> (WickError?, Duration) {
        let proxy = try TestProxy(connectBehavior: behavior)
        defer { proxy.stop() }
        let session = makeSession {
            $0.proxy = .proxy(ProxyConfiguration(host: "127.0.0.1", port: UInt16(proxy.port)))
            $0.requestTimeout = .seconds(30)
        }
        let started = ContinuousClock.now
        let result = await session.request("https://origin.invalid:8443/").serializingData().result
        let elapsed = ContinuousClock.now - started
        await session.shutdown()
        #expect(proxy.requests.map(\.requestLine) == ["CONNECT origin.invalid:8443 HTTP/1.1"])
        guard case .failure(let error) = result else { return (nil, elapsed) }
        return (error, elapsed)
    }

    @Test func aProxyThatClosesDuringCONNECTFailsAtOnce() async throws {
        let (error, elapsed) = try await Self.failure(through: .close)
        guard case .sessionTaskFailed(.proxyConnectFailed(let failure)) = error, failure.kind == .proxyClosed,
            case .proxy(.closedBeforeResponse(let proxy))? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected closedBeforeResponse, got \(String(describing: error))")
            return
        }
        #expect(proxy.hasPrefix("127.0.0.1:"))
        #expect(elapsed < .seconds(10), "a non-retryable failure ends the request, not its deadline")
    }

    @Test func aRefusalNamesTheProxysStatus() async throws {
        let (error, _) = try await Self.failure(
            through: .reply("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"))
        guard case .sessionTaskFailed(.proxyConnectFailed(let failure)) = error, failure.kind == .proxyRefused,
            case .proxy(.refused(_, 502, "Bad Gateway", false))? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected refused(502), got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("502 Bad Gateway") == true)
    }

    @Test func bytesAfterTheTunnelsHeadAreAnError() async throws {
        let (error, _) = try await Self.failure(through: .reply("HTTP/1.1 200 Connection Established\r\n\r\nHELLO"))
        guard case .sessionTaskFailed(.proxyConnectFailed(let failure)) = error, failure.kind == .proxyInvalidResponse,
            case .proxy(.unexpectedBytes(_, count: 5))? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected unexpectedBytes(5), got \(String(describing: error))")
            return
        }
    }

    @Test func anAnswerThatIsNotHTTPIsAnInvalidResponse() async throws {
        let (error, _) = try await Self.failure(through: .reply("SSH-2.0-OpenSSH_9.6\r\n\r\n"))
        guard case .sessionTaskFailed(.proxyConnectFailed(let failure)) = error, failure.kind == .proxyInvalidResponse,
            case .proxy(.invalidResponse)? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected invalidResponse, got \(String(describing: error))")
            return
        }
    }

    @Test func interimResponsesBeforeTheRefusalAreSkipped() async throws {
        let (error, _) = try await Self.failure(
            through: .reply("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 403 Forbidden\r\nContent-Length: 4\r\n\r\nnope"))
        guard case .sessionTaskFailed(.proxyConnectFailed(let failure)) = error, failure.kind == .proxyRefused,
            case .proxy(.refused(_, 403, _, _))? = failure.underlyingError as? StreamChannelError
        else {
            Issue.record("expected refused(403), got \(String(describing: error))")
            return
        }
    }

    /// A CONNECT that times out says so in the public error. (A silent proxy bounded by the
    /// connect timeout, on the runner, is in WickTransportTests' `ProxyRunnerTests`.)
    @Test func aCONNECTTimeoutSaysSoInThePublicError() {
        let error = WickError(
            TransportError.poolWaitTimeout(
                lastConnectionFailure: .proxy(.timedOut(proxy: "127.0.0.1:3128", after: .milliseconds(300)))))
        #expect(error.description.contains("did not answer CONNECT"))
    }
}
