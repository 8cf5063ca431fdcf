// RetryBudget: the windowed ledger's arithmetic, per-host budgets, the host table's bound.
import Testing
import WickCore

@testable import Wick

@Suite struct RetryBudgetTests {
    static func at(seconds: Double) -> Deadline { Deadline(uptimeNanoseconds: UInt64(1_000_000_000 * (1000 + seconds))) }

    @Test func theReserveAllowsAFewRetriesWithNoTraffic() {
        // 0.5 retries a second over 4 s: a reserve of 2.
        var ledger = RetryBudgetLedger(ratio: 0, minimumRetriesPerSecond: 0.5, window: .seconds(4))
        let allowed1 = ledger.withdrawRetry(at: Self.at(seconds: 0))
        #expect(allowed1)
        let allowed2 = ledger.withdrawRetry(at: Self.at(seconds: 0.1))
        #expect(allowed2)
        let allowed3 = ledger.withdrawRetry(at: Self.at(seconds: 0.2))
        #expect(!allowed3)
    }

    @Test func retriesGrowWithRequests() {
        var ledger = RetryBudgetLedger(ratio: 0.2, minimumRetriesPerSecond: 0, window: .seconds(10))
        for _ in 0..<10 { ledger.recordRequest(at: Self.at(seconds: 1)) }
        // 0.2 × 10 requests: two retries.
        let allowed4 = ledger.withdrawRetry(at: Self.at(seconds: 1))
        #expect(allowed4)
        let allowed5 = ledger.withdrawRetry(at: Self.at(seconds: 1))
        #expect(allowed5)
        let allowed6 = ledger.withdrawRetry(at: Self.at(seconds: 1))
        #expect(!allowed6)
        for _ in 0..<5 { ledger.recordRequest(at: Self.at(seconds: 2)) }
        let allowed7 = ledger.withdrawRetry(at: Self.at(seconds: 2))
        #expect(allowed7)
        let allowed8 = ledger.withdrawRetry(at: Self.at(seconds: 2))
        #expect(!allowed8)
    }

    @Test func activityLeavesTheWindow() {
        var ledger = RetryBudgetLedger(ratio: 0.5, minimumRetriesPerSecond: 0, window: .seconds(10))
        for _ in 0..<4 { ledger.recordRequest(at: Self.at(seconds: 0)) }
        let allowed9 = ledger.withdrawRetry(at: Self.at(seconds: 0))
        #expect(allowed9)
        let allowed10 = ledger.withdrawRetry(at: Self.at(seconds: 0))
        #expect(allowed10)
        let allowed11 = ledger.withdrawRetry(at: Self.at(seconds: 9))
        #expect(!allowed11)
        // 11 s later the requests (and the retries) have left the window: nothing is allowed
        // until new requests come.
        let allowed12 = ledger.withdrawRetry(at: Self.at(seconds: 11))
        #expect(!allowed12)
        for _ in 0..<2 { ledger.recordRequest(at: Self.at(seconds: 11)) }
        let allowed13 = ledger.withdrawRetry(at: Self.at(seconds: 11))
        #expect(allowed13)
        let allowed14 = ledger.withdrawRetry(at: Self.at(seconds: 11))
        #expect(!allowed14)
    }

    @Test func aRefusedRetryIsNotCounted() {
        var ledger = RetryBudgetLedger(ratio: 1, minimumRetriesPerSecond: 0, window: .seconds(1))
        let allowed15 = ledger.withdrawRetry(at: Self.at(seconds: 0))
        #expect(!allowed15)
        ledger.recordRequest(at: Self.at(seconds: 0))
        let allowed16 = ledger.withdrawRetry(at: Self.at(seconds: 0))
        #expect(allowed16)
    }

    @Test func aHostBudgetKeepsHostsApartAndCounts() {
        let budget = RetryBudget(ratio: 1, minimumRetriesPerSecond: 0, window: .seconds(10), scope: .host)
        budget.recordRequest(host: "a.example", at: Self.at(seconds: 0))
        #expect(!budget.withdrawRetry(host: "b.example", at: Self.at(seconds: 0)))
        #expect(budget.withdrawRetry(host: "A.EXAMPLE", at: Self.at(seconds: 0)))
        #expect(!budget.withdrawRetry(host: "a.example", at: Self.at(seconds: 0)))
        #expect(budget.statistics == RetryBudget.Statistics(requests: 1, retriesAllowed: 1, retriesRefused: 2))
    }

    @Test func aSessionBudgetSharesOneLedger() {
        let budget = RetryBudget(ratio: 1, minimumRetriesPerSecond: 0, window: .seconds(10), scope: .session)
        budget.recordRequest(host: "a.example", at: Self.at(seconds: 0))
        #expect(budget.withdrawRetry(host: "b.example", at: Self.at(seconds: 0)))
    }

    @Test func theHostTableIsBounded() {
        let budget = RetryBudget(ratio: 1, minimumRetriesPerSecond: 0, window: .seconds(10), scope: .host)
        for index in 0..<RetryBudget.maximumTrackedHosts {
            budget.recordRequest(host: "h\(index)", at: Self.at(seconds: 0))
        }
        // Full, none idle: a new host shares the overflow budget (empty, so refused)...
        #expect(!budget.withdrawRetry(host: "new", at: Self.at(seconds: 1)))
        budget.recordRequest(host: "new2", at: Self.at(seconds: 1))
        #expect(budget.withdrawRetry(host: "new3", at: Self.at(seconds: 1)))
        // ...and once the old hosts have been idle a whole window, they are forgotten.
        budget.recordRequest(host: "late", at: Self.at(seconds: 20))
        #expect(budget.withdrawRetry(host: "late", at: Self.at(seconds: 20)))
        #expect(!budget.withdrawRetry(host: "late", at: Self.at(seconds: 20)))
    }
}
