// Deadline arithmetic saturates and the monotonic clock moves forward.
import Testing
import WickCore

@Suite struct DeadlineTests {
    @Test func additionSaturatesAtBothEnds() {
        #expect(Deadline.distantFuture + .seconds(1) == .distantFuture)
        #expect(Deadline(uptimeNanoseconds: 5) + .nanoseconds(-10) == .distantPast)
        #expect(Deadline(uptimeNanoseconds: 5) + .nanoseconds(10) == Deadline(uptimeNanoseconds: 15))
    }

    @Test func remainingTimeIsNeverNegative() {
        let now = Deadline(uptimeNanoseconds: 1_000)
        #expect(Deadline(uptimeNanoseconds: 400).timeRemaining(at: now) == .zero)
        #expect(Deadline(uptimeNanoseconds: 1_500).timeRemaining(at: now) == .nanoseconds(500))
        #expect(Deadline(uptimeNanoseconds: 400).hasPassed(at: now))
    }

    @Test func differenceIsSigned() {
        let a = Deadline(uptimeNanoseconds: 100)
        let b = Deadline(uptimeNanoseconds: 250)
        #expect(b - a == .nanoseconds(150))
        #expect(a - b == .nanoseconds(-150))
    }

    @Test func clockIsMonotonic() {
        let first = Deadline.now()
        let second = Deadline.now()
        #expect(second >= first)
        #expect(first > .distantPast)
    }

    @Test func hugeDurationsClampInsteadOfTrapping() {
        #expect(Duration.seconds(Int64.max).wholeNanosecondsClamped == .max)
        #expect(Duration.seconds(Int64.min).wholeNanosecondsClamped == .min)
    }
}
