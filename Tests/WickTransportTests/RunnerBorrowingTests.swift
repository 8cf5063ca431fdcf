// The runner borrows a sleeping loop: a request started off the loop is leased and sent from
// the caller's thread, and its completion still runs on the loop's thread.
import Synchronization
import Testing
import WickCore
import WickReactor
import WickTestSupport

@testable import WickTransport

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RunnerBorrowingTests {
    /// Where one exchange's lease and completion ran.
    private struct Sighting: Sendable {
        var leasedOnCaller = false
        var completedOnLoopThread = false
        var completedAsTheLoop = false
        var status: HTTPStatus?
    }

    /// Starts one GET from this thread and waits for it; reports where its steps ran.
    private func sight(
        _ client: TestRunner, port: Int, loopThread: UInt, completesAfterIteration: Bool
    ) async -> Sighting {
        let caller = UInt(pthread_self())
        let loop = client.runner.loop
        let leasedOn = Atomic<UInt>(0)
        let exchange = client.runner.makeExchange(TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(port)))
        return await withCheckedContinuation { (continuation: CheckedContinuation<Sighting, Never>) in
            client.runner.start(
                exchange, deadline: .now() + .seconds(10),
                leaseObserver: { _, _ in leasedOn.store(UInt(pthread_self()), ordering: .relaxed) },
                completesAfterIteration: completesAfterIteration
            ) { result in
                continuation.resume(
                    returning: Sighting(
                        leasedOnCaller: leasedOn.load(ordering: .relaxed) == caller,
                        completedOnLoopThread: UInt(pthread_self()) == loopThread,
                        completedAsTheLoop: loop.inEventLoop, status: try? result.get().status))
            }
        }
    }

    @Test(arguments: [false, true])
    func aRequestStartedWhileTheLoopSleepsLeavesFromTheCallersThread(completesAfterIteration: Bool) async throws {
        let attempts = 40
        let server = try FaultServer.answeringOK(attempts + 1)
        defer { server.stop() }
        let client = try TestRunner()
        _ = try await client.send(port: server.port)
        let loopThread = try await client.runner.loop.submit { UInt(pthread_self()) }
        var borrowed = 0
        for _ in 0..<attempts {
            // Give the loop time to go to sleep, so that most starts find it asleep.
            try await Task.sleep(for: .milliseconds(5))
            let sighting = await sight(
                client, port: server.port, loopThread: loopThread, completesAfterIteration: completesAfterIteration)
            #expect(sighting.status == .ok)
            // Leased on the caller's thread or on the loop's, it completes on the loop's thread:
            // as the loop, or after the iteration (not as the loop) when asked to.
            #expect(sighting.completedOnLoopThread)
            #expect(sighting.completedAsTheLoop == !completesAfterIteration)
            if sighting.leasedOnCaller { borrowed += 1 }
        }
        #expect(borrowed > 0, "no start found the loop asleep in \(attempts) tries")
        let total = try await client.runner.statistics().total
        #expect(total.created == 1 && total.leases == attempts + 1)
        await client.close()
    }
}
