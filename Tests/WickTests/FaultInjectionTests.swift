// FaultInjector on real requests against nginx: each fault kind, retries, metrics, events, seeds.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct FaultInjectionTests {
    /// A session whose requests go through `rules` (seed 7), with `monitor` and `interceptor`.
    static func session(
        _ rules: [FaultRule], seed: UInt64 = 7, monitor: ClosureEventMonitor? = nil,
        interceptor: (any RequestInterceptor)? = nil, _ configure: (inout Session.Configuration) -> Void = { _ in }
    ) -> (Session, FaultInjector) {
        let injector = FaultInjector(seed: seed, rules: rules)
        var configuration = Session.Configuration()
        configuration.faultInjector = injector
        configure(&configuration)
        let session = Session(
            configuration: configuration, interceptor: interceptor, eventMonitors: monitor.map { [$0] } ?? [])
        return (session, injector)
    }

    /// The faults `monitor` was told of, once its queue has delivered `count` of them (bounded wait).
    static func heard(_ faults: Shared<[InjectedFault]>, count: Int) async throws -> [InjectedFault] {
        for _ in 0..<200 where faults.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(10)) }
        return faults.withLock { $0 }
    }

    @Test func aSynthesizedStatusAnswersWithoutTheServerAndTheConnectionStaysUsable() async throws {
        let nginx = try TestEnvironment.nginx()
        let heard = Shared<[InjectedFault]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidInjectFault = { _, fault in heard.withLock { $0.append(fault) } }
        let (session, injector) = Self.session(
            [FaultRule(.serviceUnavailable(retryAfter: 3), limit: 1)], monitor: monitor)
        let first = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(first.response?.statusCode == 503)
        #expect(first.response?.headers.value(for: "Retry-After") == "3")
        let injected = try #require(first.metrics?.transactions.last?.injectedFaults.first)
        #expect(injected.fault == .serviceUnavailable(retryAfter: 3))
        // Decision 1 was the dial of the connection, which injected nothing.
        #expect(injected.host == "127.0.0.1" && injected.decision == 2)
        // The server never saw the request, so the connection is in step for the next one.
        let second = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(second.value?.count == 1_024)
        #expect(second.metrics?.isReused == true)
        #expect(second.metrics?.transactions.last?.injectedFaults.isEmpty == true)
        #expect(injector.injectedFaults == [injected])
        #expect(try await Self.heard(heard, count: 1) == [injected])
        await session.shutdown()
    }

    @Test func aSynthesized429IsRetriedByRetryPolicyAfterItsRetryAfter() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = Self.session(
            [FaultRule(.tooManyRequests(retryAfter: 0), limit: 2)],
            interceptor: RetryPolicy(exponentialBackoffScale: 0.001))
        let request = session.request("\(nginx.httpBase)/bytes/1k").validate()
        let response = await request.serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(request.retryCount == 2)
        #expect(response.metrics?.transactions.map(\.statusCode) == [429, 429, 200])
        await session.shutdown()
    }

    @Test func aResetAfterResponseBytesLosesTheConnectionMidResponse() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, injector) = Self.session([FaultRule(.reset(afterResponseBytes: 300))])
        let result = await session.request("\(nginx.httpBase)/bytes/64k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result else {
            Issue.record("expected connectionLost, got \(result)")
            return
        }
        #expect(loss.cause == .reset)
        #expect(loss.requestMayHaveBeenProcessed)
        #expect(injector.injectedFaultCount == 1)
        await session.shutdown()
    }

    @Test func aResetOnAnIdempotentGETIsRetried() async throws {
        let nginx = try TestEnvironment.nginx()
        let heard = Shared<[InjectedFault]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidInjectFault = { _, fault in heard.withLock { $0.append(fault) } }
        let (session, _) = Self.session(
            [FaultRule(.reset(afterResponseBytes: 10), limit: 1)], monitor: monitor,
            interceptor: RetryPolicy(exponentialBackoffScale: 0.001))
        let request = session.request("\(nginx.httpBase)/bytes/1k")
        let response = await request.serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(request.retryCount == 1)
        #expect(try await Self.heard(heard, count: 1).map(\.fault) == [.reset(afterResponseBytes: 10)])
        await session.shutdown()
    }

    @Test func aResetOnAPOSTIsNotRetried() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, _) = Self.session(
            [FaultRule(.reset(afterResponseBytes: 10), limit: 1)], interceptor: RetryPolicy(exponentialBackoffScale: 0.001))
        let request = session.request("\(nginx.httpBase)/post/1k", method: .post)
        let result = await request.serializingData().result
        #expect(request.retryCount == 0)
        guard case .failure(.sessionTaskFailed(.connectionLost)) = result else {
            Issue.record("expected connectionLost, got \(result)")
            return
        }
        await session.shutdown()
    }

    @Test(arguments: [false, true])
    func aTruncatedBodyFailsAsIncompleteOverPlainAndTLS(tls: Bool) async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let (session, _) = Self.session([FaultRule(.truncatedBody(keepingBytes: 1_000))]) { $0.trustRoots = roots }
        let base = tls ? nginx.httpsBase : nginx.httpBase
        let result = await session.request("\(base)/bytes/64k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result else {
            Issue.record("expected connectionLost, got \(result)")
            return
        }
        #expect(loss.requestMayHaveBeenProcessed)
        #expect(loss.cause == (tls ? .tlsFailed : .closedDuringResponse), "\(loss)")
        await session.shutdown()
    }

    @Test func aRefusedConnectFailsAtOnceAndMonitorsHearIt() async throws {
        let nginx = try TestEnvironment.nginx()
        let heard = Shared<[InjectedFault]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidInjectFault = { _, fault in heard.withLock { $0.append(fault) } }
        let (session, _) = Self.session([FaultRule(.connectRefused)], monitor: monitor) {
            $0.waitsForConnectivity = false
        }
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
            Issue.record("expected connectionFailed, got \(result)")
            return
        }
        #expect(failure.kind == .refused)
        #expect(try await Self.heard(heard, count: 1).map(\.fault) == [.connectRefused])
        await session.shutdown()
    }

    @Test func aRefusedConnectIsRiddenOutWhileTheSessionWaitsForConnectivity() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, injector) = Self.session([FaultRule(.connectRefused, limit: 2)])
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(injector.injectedFaults.map(\.fault) == [.connectRefused, .connectRefused])
        await session.shutdown()
    }

    @Test func rulesApplyOnlyToTheirHosts() async throws {
        let nginx = try TestEnvironment.nginx()
        let (session, injector) = Self.session([FaultRule(.serviceUnavailable(), hosts: ["example.invalid"])])
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.response?.statusCode == 200)
        #expect(injector.injectedFaultCount == 0)
        await session.shutdown()
    }

    /// The decisions that injected a fault over `count` sequential requests with `seed`.
    static func decisions(seed: UInt64, count: Int, base: String) async -> [UInt64] {
        let (session, injector) = Self.session([FaultRule(.serviceUnavailable(), fraction: 0.5)], seed: seed)
        for _ in 0..<count { _ = await session.request("\(base)/bytes/0").serializingData().response }
        await session.shutdown()
        return injector.injectedFaults.map(\.decision)
    }

    @Test func theSameSeedInjectsTheSameFaults() async throws {
        let nginx = try TestEnvironment.nginx()
        let first = await Self.decisions(seed: 42, count: 24, base: nginx.httpBase)
        let again = await Self.decisions(seed: 42, count: 24, base: nginx.httpBase)
        let other = await Self.decisions(seed: 43, count: 24, base: nginx.httpBase)
        #expect(first == again)
        #expect(first != other)
        // About half of 24: the chance of fewer than 4 or more than 20 is below 1 in 1,000.
        #expect((4...20).contains(first.count), "\(first)")
    }
}

struct FaultDelayTests {
    @Test func drawnDelaysStayWithinTheirBounds() {
        for step in 0..<100 {
            let unit = Double(step) / 100
            let uniform = FaultDelay.uniform(.milliseconds(10)...(.milliseconds(20))).delay(forUnitDraw: unit)
            #expect(uniform >= .milliseconds(10) && uniform <= .milliseconds(20))
            let exponential = FaultDelay.exponential(mean: .milliseconds(5), maximum: .milliseconds(50))
                .delay(forUnitDraw: unit)
            #expect(exponential >= .zero && exponential <= .milliseconds(50))
        }
        #expect(FaultDelay.fixed(.seconds(1)).delay(forUnitDraw: 0.7) == .seconds(1))
    }
}
