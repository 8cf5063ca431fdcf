// A caller that waits inline for its exchange (`TransportCancellation.waitInline`) completes it
// on its own thread when the loop sleeps, and leaves a slow response to the loop.
import Synchronization
import Testing
import WickCore
import WickReactor
import WickTestSupport

@testable import WickTransport

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RunnerInlineWaitTests {
    /// Each test runs with the loop sleeping between events, and with it and the waiting caller
    /// busy polling (`busyPollDuration`) for 5 ms before they sleep.
    static let busyPolling: [Duration] = [.zero, .milliseconds(5)]

    /// Where one exchange completed, started and waited for on a thread of its own.
    private struct Sighting: Sendable {
        var completedOnCaller = false
        var status: HTTPStatus?
    }

    /// Starts a GET on a thread of its own, waits inline for up to `budget`, then for the
    /// completion; reports where it ran.
    private func sight(_ client: TestRunner, port: Int, budget: Duration) -> Sighting {
        let sighting = Locked<Sighting?>(nil)
        let caller = JoinableThread(name: "wick-test") {
            let me = UInt(pthread_self())
            let exchange = client.runner.makeExchange(
                TransportRequest(.get, .http, host: "127.0.0.1", port: UInt16(port)))
            let done = Atomic<Bool>(false)
            client.runner.start(exchange, deadline: .now() + .seconds(20), completesAfterIteration: true) { result in
                sighting.withLock {
                    $0 = Sighting(completedOnCaller: UInt(pthread_self()) == me, status: try? result.get().status)
                }
                done.store(true, ordering: .releasing)
            }
            TransportCancellation(runner: client.runner, handle: exchange).waitInline(for: budget)
            // Bounded: the exchange's own deadline is 20 s.
            for _ in 0..<30_000 where !done.load(ordering: .acquiring) { usleep(1_000) }
        }
        caller.join()
        return sighting.withLock { $0 } ?? Sighting()
    }

    @Test(arguments: busyPolling) func aFastResponseCompletesOnTheWaitingCallersThread(busyPollDuration: Duration) async throws {
        // Whether a wait finds the loop asleep is the scheduler's call: on a quiet machine most
        // do, but with every core busy (the whole suite in parallel) dozens in a row can find the
        // loop's thread runnable and not yet back in `epoll_wait`. So: tries until one completes
        // on its caller, at most `attempts` of them and 20 s.
        let attempts = 400
        let server = try FaultServer.answeringOK(attempts + 1)
        defer { server.stop() }
        let client = try TestRunner(busyPollDuration: busyPollDuration)
        _ = try await client.send(port: server.port)
        let giveUp = Deadline.now() + .seconds(20)
        var tries = 0
        var onCaller = 0
        while tries < attempts && onCaller == 0 && !giveUp.hasPassed(at: .now()) {
            tries += 1
            // Give the loop time to go to sleep, so that most waits find it asleep.
            try await Task.sleep(for: .milliseconds(5))
            let sighting = sight(client, port: server.port, budget: .seconds(5))
            #expect(sighting.status == .ok)
            if sighting.completedOnCaller { onCaller += 1 }
        }
        #expect(onCaller > 0, "no wait found the loop asleep in \(tries) tries")
        let total = try await client.runner.statistics().total
        #expect(total.created == 1 && total.leases == tries + 1)
        await client.close()
    }

    /// A response slower than the wait is taken by the loop, whole and on the same connection.
    @Test(arguments: busyPolling) func aSlowResponseOutlastsTheWaitAndTheLoopCompletesIt(busyPollDuration: Duration) async throws {
        let server = try FaultServer(steps: [
            .repeating([.readRequest, .pause(.milliseconds(100)), .respond(body: "slow")], times: 3),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner(busyPollDuration: busyPollDuration)
        for _ in 0..<3 {
            let sighting = sight(client, port: server.port, budget: .milliseconds(2))
            #expect(sighting.status == .ok)
            #expect(!sighting.completedOnCaller)
        }
        let total = try await client.runner.statistics().total
        #expect(total.created == 1 && total.leases == 3)
        await client.close()
    }
}
