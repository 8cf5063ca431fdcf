// `wick pool-test`: the pool suite's seeded random event sequences, from the installed command.
//
//   wick pool-test [--seeds N | --seed S ...] [--steps N]
//
// Each seed is played twice, as WickPoolTests plays it: HTTP/1.1 origins only, then with two
// multiplexed (HTTP/2) origins beside one; every invariant is checked after every step and at
// the end. A violation prints the seed, the step, the rule and the last events, and the command
// exits 1; a bad argument exits 2. A trap in the pool itself (an impossible transition) kills the
// process, so each run's line is written before it plays: the last line names the seed.
package import WickCore
package import WickPool

/// The `pool-test` command: its arguments and its runs.
package struct PoolTestCommand {
    /// A command line the command cannot run.
    package struct UsageError: Error, CustomStringConvertible {
        /// What was wrong, with the usage.
        package let description: String
    }

    /// The usage line.
    package static let usage = "usage: wick pool-test [--seeds N | --seed S ...] [--steps N]\n"
    /// The seeds the suite plays (even ones end with a draining shutdown, odd ones cancelling).
    package static let suiteSeeds: [UInt64] = [1, 2, 3, 42, 2026, 0xC0FFEE]
    /// The steps the suite plays before shutting down.
    package static let suiteSteps = 6_000
    /// The origins that are multiplexed in a run's second half, with their stream capacities.
    package static let multiplexedOrigins: [String: ClosedRange<Int>] = [
        "https://a.example": 1...6, "http://c.example:8080": 2...3,
    ]

    /// Tight limits so that every rule is exercised often.
    package static var settings: PoolSettings {
        var settings = PoolSettings()
        settings.maximumConnectionsPerOrigin = 3
        settings.maximumIdleConnectionsPerOrigin = 2
        settings.idleTimeout = .seconds(5)
        settings.maximumConnectionLifetime = .seconds(20)
        settings.maximumRequestsPerConnection = 4
        settings.poolWaitTimeout = .seconds(8)
        settings.keepAliveTimeoutMargin = .seconds(1)
        settings.initialBackoff = .milliseconds(100)
        settings.maximumBackoff = .seconds(2)
        return settings
    }

    /// The seeds to play.
    package var seeds = suiteSeeds
    /// The steps each run plays before it shuts the pool down.
    package var steps = suiteSteps

    /// The command for `arguments` (after `pool-test`): `--seeds N` plays seeds 1 to N,
    /// `--seed S` (decimal or `0x` hex, repeatable) plays S, `--steps N` sets the steps; without
    /// seeds, the suite's.
    /// - Throws: `UsageError` for an unknown option or a value that is not a number in range.
    package init(arguments: [String]) throws(UsageError) {
        var chosen: [UInt64] = []
        var remaining = arguments[...]
        while let option = remaining.popFirst() {
            guard let value = remaining.popFirst() else {
                throw UsageError(description: "\(option) needs a value\n" + Self.usage)
            }
            switch option {
            case "--seeds":
                guard let count = UInt64(value), count > 0 else { throw Self.invalid(option, value) }
                chosen += Array(1...count)
            case "--seed":
                let seed = value.hasPrefix("0x") ? UInt64(value.dropFirst(2), radix: 16) : UInt64(value)
                guard let seed else { throw Self.invalid(option, value) }
                chosen.append(seed)
            case "--steps":
                guard let steps = Int(value), steps >= 0 else { throw Self.invalid(option, value) }
                self.steps = steps
            default:
                throw UsageError(description: "unknown option \(option)\n" + Self.usage)
            }
        }
        if !chosen.isEmpty { seeds = chosen }
    }

    /// Plays every seed, both ways, writing a line per run and a summary through `write`,
    /// with `extraInvariant` checked after every step beside the pool's own (nil: none).
    /// - Returns: 0 when every run held, 1 when one broke (the runs after it are not played).
    package func run(
        extraInvariant: (@Sendable (PoolWorld) throws -> Void)? = nil, write: (String) -> Void
    ) -> Int32 {
        var passed = 0
        for seed in seeds {
            for multiplexed in [false, true] {
                let kind = multiplexed ? "HTTP/1.1 and multiplexed origins" : "HTTP/1.1 origins"
                write("pool-test: seed \(seed), \(kind), \(steps) steps: ")
                var run = RandomRun(
                    seed: seed, settings: Self.settings, multiplexedOrigins: multiplexed ? Self.multiplexedOrigins : [:]
                )
                run.extraInvariant = extraInvariant
                do {
                    try run.play(steps: steps)
                    try run.checkEnd()
                } catch {
                    write("FAILED at step \(run.step): \(error)\n  the last events, oldest first:\n")
                    for event in run.trace { write("    \(event)\n") }
                    write("  replay: wick pool-test --seed \(seed) --steps \(steps)\n")
                    write("pool-test: \(passed) runs passed, seed \(seed) failed\n")
                    return 1
                }
                let total = run.world.pool.statistics.total
                write(
                    "ok (\(run.world.requests.count) requests, \(total.reused) reuses, \(total.failedAttempts) failed attempts, \(total.replayed) replays)\n"
                )
                passed += 1
            }
        }
        write("pool-test: all \(passed) runs passed\n")
        return 0
    }

    /// The error for `option`'s bad `value`.
    private static func invalid(_ option: String, _ value: String) -> UsageError {
        UsageError(description: "\(option): not a valid number: \(value)\n" + usage)
    }
}
