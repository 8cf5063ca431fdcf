// SessionService in a ServiceGroup: graceful shutdown drains running requests, then cancels.
import FoundationEssentials
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import Wick
import WickServiceLifecycle
import WickTestSupport

@Suite struct SessionServiceTests {
    /// A group running `service` alone, logging nowhere.
    static func group(_ service: SessionService) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [service], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
    }

    /// Starts `request` and returns a task awaiting its outcome.
    static func outcome(of request: DataRequest) -> Task<DataResponse<Data, WickError>, Never> {
        let task = Task {
            await withCheckedContinuation { continuation in
                request.responseData { continuation.resume(returning: $0) }
            }
        }
        return task
    }

    /// Waits until `session` has a running request.
    static func waitForARequest(in session: Session) async throws {
        for _ in 0..<500 {
            var running = false
            session.withAllRequests { running = !$0.isEmpty }
            if running { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("no request started")
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aRequestThatFinishesWithinTheDrainCompletes() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let service = SessionService(session, drainTimeout: .seconds(10))
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.group(service).run() }
                let response = Self.outcome(of: session.request("\(base)/delay/1"))
                try await Self.waitForARequest(in: session)
                trigger.triggerGracefulShutdown()
                let result = await response.value
                #expect(result.response?.statusCode == 200)
                #expect(result.error == nil)
                try await group.waitForAll()
            }
        }
        // Shut down: new requests are refused.
        let late = await Self.outcome(of: session.request("\(base)/get")).value
        guard case .sessionInvalidated? = late.error else {
            Issue.record("expected sessionInvalidated, got \(String(describing: late.error))")
            return
        }
    }

    @Test func aRequestPastTheDrainIsCancelled() async throws {
        // A server that reads the request and never answers: only the cancel can end it, so the
        // test does not depend on how long the drain's sleep takes on a loaded machine.
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(30))])
        defer { server.stop() }
        let session = Session()
        let service = SessionService(session, drainTimeout: .milliseconds(200))
        let clock = ContinuousClock()
        let start = clock.now
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.group(service).run() }
                let response = Self.outcome(of: session.request("http://127.0.0.1:\(server.port)/"))
                try await Self.waitForARequest(in: session)
                trigger.triggerGracefulShutdown()
                let result = await response.value
                guard case .explicitlyCancelled? = result.error else {
                    Issue.record("expected explicitlyCancelled, got \(String(describing: result.error))")
                    return
                }
                try await group.waitForAll()
            }
        }
        #expect(clock.now - start < .seconds(25), "cancelled after the drain, long before the server's 30 s")
    }

    @Test func cancellingTheServiceShutsTheSessionDownAtOnce() async throws {
        let session = Session()
        let service = SessionService(session, drainTimeout: .seconds(30))
        let running = Task { try await service.run() }
        running.cancel()
        try await running.value
        let refusing = try RefusingPort()
        let late = await Self.outcome(of: session.request("http://127.0.0.1:\(refusing.port)/")).value
        guard case .sessionInvalidated? = late.error else {
            Issue.record("expected sessionInvalidated, got \(String(describing: late.error))")
            return
        }
    }
}
