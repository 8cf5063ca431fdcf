// CompactDuration and CompactDeadline keep what metrics store, in 8 bytes.
import Testing
import WickCore

@Suite struct CompactOptionalsTests {
    @Test(arguments: [
        nil, Duration.zero, .nanoseconds(1), .nanoseconds(-1), .milliseconds(1_500), .seconds(86_400 * 365),
        .nanoseconds(Int64.max), .nanoseconds(Int64.min + 1),
    ])
    func aDurationReadsBackAsStored(_ duration: Duration?) {
        #expect(CompactDuration(duration).value == duration)
        #expect(MemoryLayout<CompactDuration>.size == 8)
    }

    @Test func partsOfANanosecondAreDroppedAndHugeDurationsClamped() {
        #expect(
            CompactDuration(.nanoseconds(5) + Duration(secondsComponent: 0, attosecondsComponent: 400_000_000)).value
                == .nanoseconds(5))
        #expect(CompactDuration(.seconds(Int64.max)).value == .nanoseconds(Int64.max))
        #expect(CompactDuration(.seconds(Int64.min)).value == .nanoseconds(Int64.min + 1))
    }

    @Test(arguments: [nil, Deadline(uptimeNanoseconds: 0), Deadline(uptimeNanoseconds: 123_456_789)])
    func aDeadlineReadsBackAsStored(_ deadline: Deadline?) {
        #expect(CompactDeadline(deadline).value == deadline)
        #expect(MemoryLayout<CompactDeadline>.size == 8)
    }

    @Test func theDistantFutureReadsBackAsNil() {
        #expect(CompactDeadline(.distantFuture).value == nil)
    }

    @Test(arguments: [
        [UInt64(1_000), 1_000], [1_000, 251_000], [5_000, 1_000], [0, UInt64(Int64.max)],
        [123_456_789, 987_654_321_000],
    ])
    func aPhaseFromAStartIsTheDifferenceOfItsReadings(_ readings: [UInt64]) {
        let (start, end) = (readings[0], readings[1])
        let startDeadline = Deadline(uptimeNanoseconds: start)
        let endDeadline = Deadline(uptimeNanoseconds: end)
        #expect(
            CompactDuration(from: startDeadline, to: CompactDeadline(endDeadline))
                == CompactDuration(endDeadline - startDeadline))
        #expect(CompactDuration(from: startDeadline, to: endDeadline) == CompactDuration(endDeadline - startDeadline))
        #expect(CompactDuration(from: startDeadline, to: CompactDeadline(nil)).value == nil)
    }
}
