// A connection stops being waited for inline after waits run out, and is again after one that did not.
import Testing

@testable import WickTransport

@Suite struct InlineWaitHistoryTests {
    /// How many callers in a row may not wait, counted from now.
    private func skipped(_ history: inout InlineWaitHistory) -> Int {
        var count = 0
        while !history.callerMayWait() { count += 1 }
        return count
    }

    @Test func aNewConnectionIsWaitedFor() {
        var history = InlineWaitHistory()
        let first = history.callerMayWait()
        let second = history.callerMayWait()
        #expect(first && second)
    }

    @Test func eachRunOutDoublesTheCallersThatDoNotWaitUpToTheBound() {
        var history = InlineWaitHistory()
        var seen: [Int] = []
        for _ in 0..<9 {
            history.record(ranOut: true)
            seen.append(skipped(&history))
        }
        #expect(seen == [1, 2, 4, 8, 16, 32, 64, 64, 64])
    }

    @Test func aWaitThatGotItsResponseStartsTheCountAgain() {
        var history = InlineWaitHistory()
        for _ in 0..<4 { history.record(ranOut: true) }
        _ = skipped(&history)
        history.record(ranOut: false)
        let mayWait = history.callerMayWait()
        #expect(mayWait)
        history.record(ranOut: true)
        #expect(skipped(&history) == 1)
    }
}
