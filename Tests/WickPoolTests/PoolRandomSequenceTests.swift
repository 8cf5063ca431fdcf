// Seeded random event sequences against the pool, with its invariants checked after every step.
import Testing
import WickCore
import WickPool
import WickPoolChecking

@Suite("The pool under random event sequences")
struct PoolRandomSequenceTests {
    /// Even seeds end with a draining shutdown, odd ones with a cancelling one.
    static let seeds = PoolTestCommand.suiteSeeds

    @Test(
        "After every step: connections within limits, gauges match the world, no request both waiting and leased; at the end every request completed once, every timer fired or cancelled, shutdown complete",
        arguments: seeds
    )
    func invariantsHoldUnderRandomEvents(seed: UInt64) throws {
        var run = RandomRun(seed: seed, settings: PoolTestCommand.settings)
        do {
            try run.play(steps: PoolTestCommand.suiteSteps)
            try run.checkEnd()
        } catch {
            Issue.record("seed \(seed), step \(run.step): \(error)")
            return
        }
        let world = run.world
        // The run must have exercised the interesting paths, or it proves little.
        let total = world.pool.statistics.total
        #expect(total.reused > 100 && total.failedAttempts > 50 && total.evicted > 10 && total.replayed > 50)
        #expect(
            run.outcomes.poolWaitTimeouts > 10 && run.outcomes.cancellations > 10 && run.outcomes.connectionFailures > 5
        )
    }

    @Test(
        "With multiplexed (HTTP/2) origins beside an HTTP/1.1 one: the same invariants, no waiter while a stream is free, no stream past a capacity, every drained connection closed",
        arguments: seeds
    )
    func invariantsHoldWithMultiplexedConnections(seed: UInt64) throws {
        var run = RandomRun(
            seed: seed, settings: PoolTestCommand.settings, multiplexedOrigins: PoolTestCommand.multiplexedOrigins)
        do {
            try run.play(steps: PoolTestCommand.suiteSteps)
            try run.checkEnd()
        } catch {
            Issue.record("seed \(seed), step \(run.step): \(error)")
            return
        }
        let world = run.world
        let total = world.pool.statistics.total
        #expect(total.reused > 100 && total.failedAttempts > 50 && total.replayed > 50)
        #expect(world.sharedStreamLeases > 200, "streams shared \(world.sharedStreamLeases) times")
        #expect(run.outcomes.goAwaysWithStreams > 10 && run.outcomes.capacityChanges > 20)
        #expect(run.outcomes.poolWaitTimeouts > 5 && run.outcomes.cancellations > 5)
    }
}
