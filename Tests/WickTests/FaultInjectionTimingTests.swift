// FaultInjector faults that take time (latency, stalls, connect timeouts) on real requests.
import Foundation
import Testing
import Wick
import WickTestSupport

/// Real time: run alone with the other timing suites (Scripts/test).
@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct FaultInjectionTimingTests {
    @Test func latencyHoldsTheResponseBackAndMetricsShowIt() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = FaultInjectionTests.session([FaultRule(.latency(.fixed(.milliseconds(200))))])
        let started = ContinuousClock.now
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(response.value?.count == 1_024)
        let metrics = try #require(response.metrics?.transactions.last)
        #expect(try #require(metrics.firstByte) >= .milliseconds(200))
        #expect(metrics.injectedFaults.map(\.fault) == [.latency(.fixed(.milliseconds(200)))])
        await session.shutdown()
    }

    @Test func aDistributedLatencyIsDrawnFromTheSeed() async throws {
        let nginx = try TestEnvironment.nginx()
        var drawn: [[Fault]] = []
        for _ in 0..<2 {
            let (session, injector) = FaultInjectionTests.session(
                [FaultRule(.latency(.uniform(.milliseconds(1)...(.milliseconds(30)))))], seed: 99)
            for _ in 0..<5 { _ = await session.request("\(nginx.httpBase)/bytes/0").serializingData().response }
            await session.shutdown()
            drawn.append(injector.injectedFaults.map(\.fault))
        }
        #expect(drawn[0] == drawn[1])
        #expect(Set(drawn[0]).count > 1, "five draws from a range differ")
    }

    @Test func aStallBeforeTheResponseTimesOutWaitingForIt() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = FaultInjectionTests.session([FaultRule(.stall(afterResponseBytes: 0))]) {
            $0.requestTimeout = .milliseconds(300)
        }
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, _))) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(phase == .waitingForResponse)
        await session.shutdown()
    }

    @Test func aStallMidBodyEndsAtTheIdleTimeout() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = FaultInjectionTests.session([FaultRule(.stall(afterResponseBytes: 2_000))]) {
            $0.idleTransferTimeout = .milliseconds(200)
        }
        let result = await session.request("\(nginx.httpBase)/bytes/64k").serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, _))) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(phase == .idleTransfer)
        await session.shutdown()
    }

    @Test func aConnectTimeoutEndsTheRequestInTheConnectPhase() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = FaultInjectionTests.session([FaultRule(.connectTimeout)]) {
            $0.requestTimeout = .milliseconds(300)
        }
        let started = ContinuousClock.now
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        #expect(ContinuousClock.now - started >= .milliseconds(250))
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, _))) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(phase == .connect)
        await session.shutdown()
    }

    @Test func aConnectTimeoutFailsAtTheConnectTimeoutWithoutWaiting() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = FaultInjectionTests.session([FaultRule(.connectTimeout)]) {
            $0.connectTimeout = .milliseconds(150)
            $0.waitsForConnectivity = false
        }
        let started = ContinuousClock.now
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        #expect(ContinuousClock.now - started >= .milliseconds(140))
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, let last))) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(phase == .connect)
        #expect(last?.kind == .timedOut)
        await session.shutdown()
    }
}
