// `wick pool-test`'s arguments and runs: a short run passes, and an injected broken rule is
// reported with its seed, its step, the events before it and the command that replays it.
import Testing
import WickPoolChecking

struct PoolTestCommandTests {
    @Test func withoutArgumentsItPlaysTheSuitesSeeds() throws {
        let command = try PoolTestCommand(arguments: [])
        #expect(command.seeds == PoolTestCommand.suiteSeeds)
        #expect(command.steps == PoolTestCommand.suiteSteps)
    }

    @Test func seedsStepsAndHexSeeds() throws {
        #expect(try PoolTestCommand(arguments: ["--seeds", "3"]).seeds == [1, 2, 3])
        let command = try PoolTestCommand(arguments: ["--seed", "0xC0FFEE", "--seed", "7", "--steps", "50"])
        #expect(command.seeds == [0xC0FFEE, 7])
        #expect(command.steps == 50)
        #expect(throws: PoolTestCommand.UsageError.self) { try PoolTestCommand(arguments: ["--seeds", "0"]) }
        #expect(throws: PoolTestCommand.UsageError.self) { try PoolTestCommand(arguments: ["--seed", "x"]) }
        #expect(throws: PoolTestCommand.UsageError.self) { try PoolTestCommand(arguments: ["--steps"]) }
        #expect(throws: PoolTestCommand.UsageError.self) { try PoolTestCommand(arguments: ["--fast", "1"]) }
    }

    @Test func aShortRunPassesBothWays() throws {
        let command = try PoolTestCommand(arguments: ["--seeds", "2", "--steps", "400"])
        var output = ""
        let status = command.run { output += $0 }
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("pool-test: seed 1, HTTP/1.1 origins, 400 steps: ok ("))
        #expect(lines[1].hasPrefix("pool-test: seed 1, HTTP/1.1 and multiplexed origins, 400 steps: ok ("))
        #expect(lines.last == "pool-test: all 4 runs passed")
    }

    /// A rule the pool does not keep (at most one connection in the world; it may open three
    /// per origin) breaks early: the report names the seed and stops there.
    @Test func aBrokenRuleIsReportedWithItsSeedAndEvents() throws {
        let command = try PoolTestCommand(arguments: ["--seed", "42", "--seed", "43", "--steps", "400"])
        var output = ""
        let status = command.run(
            extraInvariant: { world in
                if world.connections.count > 1 { throw WorldViolation("\(world.connections.count) connections") }
            },
            write: { output += $0 })
        #expect(status == 1)
        #expect(output.hasPrefix("pool-test: seed 42, HTTP/1.1 origins, 400 steps: FAILED at step "))
        #expect(output.contains(": 2 connections\n  the last events, oldest first:\n    "))
        #expect(output.contains(" arrives for https://"))
        #expect(output.contains("  replay: wick pool-test --seed 42 --steps 400\n"))
        #expect(output.hasSuffix("pool-test: 0 runs passed, seed 42 failed\n"))
        #expect(!output.contains("seed 43"))
    }
}
