// Deadline arithmetic saturates and the monotonic clock moves forward.
import Testing
import WickCore
import WickTestSupport

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

    @Test func wholeNanosecondsTruncateTowardZeroOnBothSides() {
        #expect(Duration.seconds(60).wholeNanosecondsClamped == 60_000_000_000)
        #expect(Duration.milliseconds(-250).wholeNanosecondsClamped == -250_000_000)
        #expect(Duration.nanoseconds(7).wholeNanosecondsClamped == 7)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 1_999_999_999).wholeNanosecondsClamped == 1)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: -1_999_999_999).wholeNanosecondsClamped == -1)
        #expect(Duration(secondsComponent: 12, attosecondsComponent: 999_999_999_999_999_999).wholeNanosecondsClamped
            == 12_999_999_999)
        #expect(Duration.nanoseconds(Int64.max).wholeNanosecondsClamped == .max)
        #expect(Duration.nanoseconds(Int64.min + 1).wholeNanosecondsClamped == Int64.min + 1)
        // Just past Int64's range: the quotient fits in 64 bits but not in Int64.
        #expect((Duration.nanoseconds(Int64.max) + .nanoseconds(1)).wholeNanosecondsClamped == .max)
    }

    @Test func wholeNanosecondsMatchA128BitDivisionAcrossTheRange() {
        // Seeded: attosecond counts of every magnitude up to Int64's nanosecond range, each
        // checked against the standard library's own 128-bit division.
        var generator = SeededRandom(seed: 0x5EED_0001)
        for _ in 0..<20_000 {
            // A magnitude of 0 to 126 bits, so that it and its negation are Int128s.
            let bits = Int(generator.next() % 127)
            let magnitude = Int128((UInt128(generator.next()) << 64 | UInt128(generator.next())) >> (128 - bits))
            let attoseconds = generator.next() & 1 == 0 ? magnitude : -magnitude
            let duration = Duration(attoseconds: attoseconds)
            let expected = attoseconds / 1_000_000_000
            let clamped: Int64 = expected > Int128(Int64.max) ? .max : expected < Int128(Int64.min) ? .min : Int64(expected)
            #expect(duration.wholeNanosecondsClamped == clamped, "attoseconds \(attoseconds)")
        }
    }

    @Test func hugeDurationsClampInsteadOfTrapping() {
        #expect(Duration.seconds(Int64.max).wholeNanosecondsClamped == .max)
        #expect(Duration.seconds(Int64.min).wholeNanosecondsClamped == .min)
    }
}

