// The trust-evaluated event against nginx over https: once per new connection, with the
// evaluator and chain; a refusal with its reason; nothing for plain http.
import Dispatch
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct ServerTrustEventTests {
    /// A session whose monitor records trust evaluations and the order of connection events.
    private static func recordingSession(
        serverTrustManager: ServerTrustManager? = nil, roots: TrustRoots
    ) -> (Session, Shared<[ServerTrustEvaluation]>, Shared<[String]>) {
        let evaluations = Shared<[ServerTrustEvaluation]>([])
        let order = Shared<[String]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidEvaluateServerTrust = { _, evaluation in
            evaluations.withLock { $0.append(evaluation) }
            order.withLock { $0.append("trust") }
        }
        monitor.requestDidAcquireConnection = { _, _ in order.withLock { $0.append("connection") } }
        var configuration = Session.Configuration()
        configuration.trustRoots = roots
        let session = Session(
            configuration: configuration, serverTrustManager: serverTrustManager, eventMonitors: [monitor])
        return (session, evaluations, order)
    }

    @Test func aNewConnectionReportsItsEvaluationOnceAndAReusedOneNone() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, evaluations, order) = Self.recordingSession(roots: try SessionNginxTests.testRoots(nginx))
        for _ in 0..<2 {
            let data = try await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().value
            #expect(data.count == 1_024)
        }
        // Monitors run on their own queue: wait for the last event.
        #expect(try await waitUntil { order.withLock { $0.count } == 3 })
        #expect(order.withLock { $0 } == ["trust", "connection", "connection"])
        let evaluation = try #require(evaluations.withLock { $0.first })
        #expect(evaluation.succeeded && evaluation.evaluator == "DefaultTrustEvaluator")
        #expect(evaluation.host == URL(string: nginx.httpsBase)?.host)
        let leaf = try Certificate(pemEncoded: String(contentsOf: nginx.pki.server.certificate, encoding: .utf8))
        #expect(evaluation.presentedChain.first == leaf && evaluation.presentedChain.count == 2)
        await session.shutdown()
    }

    @Test func aRefusalIsReportedWithTheEvaluatorsReason() async throws {
        let nginx = try TestEnvironment.nginx()
        let host = try #require(URL(string: nginx.httpsBase)?.host)
        let wrongKey = PublicKey(spkiSHA256: [UInt8](repeating: 0xAB, count: 32))
        let (session, evaluations, _) = Self.recordingSession(
            serverTrustManager: ServerTrustManager(evaluators: [host: PublicKeysTrustEvaluator(keys: [wrongKey])]),
            roots: try SessionNginxTests.testRoots(nginx))
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.serverTrustEvaluationFailed) = result else {
            Issue.record("expected a trust failure, got \(result)")
            return
        }
        #expect(try await waitUntil { evaluations.withLock { !$0.isEmpty } })
        let evaluation = try #require(evaluations.withLock { $0.first })
        #expect(!evaluation.succeeded && evaluation.evaluator == "PublicKeysTrustEvaluator")
        guard case .failure(let refusal) = evaluation.result, case .publicKeyPinningFailed = refusal.reason else {
            Issue.record("expected publicKeyPinningFailed, got \(evaluation.result)")
            return
        }
        await session.shutdown()
    }

    @Test func plainHTTPReportsNoEvaluation() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, evaluations, order) = Self.recordingSession(roots: .system)
        _ = try await session.request("\(nginx.httpBase)/bytes/1k").serializingData().value
        #expect(try await waitUntil { order.withLock { $0.count } == 1 })
        #expect(evaluations.withLock { $0.isEmpty })
        await session.shutdown()
    }

    @Test func aReportOnlyPinMismatchReachesMonitorsAndTheRequestSucceeds() async throws {
        let nginx = try TestEnvironment.nginx()
        let host = try #require(URL(string: nginx.httpsBase)?.host)
        let wrongKey = PublicKey(spkiSHA256: [UInt8](repeating: 0xAB, count: 32))
        let (session, evaluations, _) = Self.recordingSession(
            serverTrustManager: ServerTrustManager(evaluators: [
                host: PublicKeysTrustEvaluator(keys: [wrongKey], policy: .reportOnly)
            ]),
            roots: try SessionNginxTests.testRoots(nginx))
        let data = try await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().value
        #expect(data.count == 1_024)
        #expect(try await waitUntil { evaluations.withLock { !$0.isEmpty } })
        let evaluation = try #require(evaluations.withLock { $0.first })
        #expect(evaluation.succeeded && evaluation.evaluator == "PublicKeysTrustEvaluator")
        #expect(evaluation.reportedViolations.count == 1)
        guard case .publicKeyPinningFailed(let pinned, _)? = evaluation.reportedViolations.first?.reason else {
            Issue.record("expected a reported pin mismatch, got \(evaluation.reportedViolations)")
            return
        }
        #expect(pinned == [wrongKey])
        await session.shutdown()
    }
}
