// `Request.Outcome` shares its storage between copies and copies it on a change: value semantics.
import Foundation
import Testing

@testable import Wick

@Suite struct RequestOutcomeTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = Request.Outcome(request: nil, error: .explicitlyCancelled)
        var copy = original
        copy.error = .sessionInvalidated
        copy.resumeData = Data([1, 2, 3])
        if case .explicitlyCancelled? = original.error {
        } else {
            Issue.record("the original changed: \(String(describing: original.error))")
        }
        #expect(original.resumeData == nil)
        if case .sessionInvalidated? = copy.error {} else { Issue.record("the copy did not change") }
        #expect(copy.resumeData == Data([1, 2, 3]))
    }

    @Test func anUnsharedOutcomeChangesInPlace() {
        var outcome = Request.Outcome(request: nil)
        outcome.error = .sessionInvalidated
        outcome.error = nil
        #expect(outcome.error.map { "\($0)" } == nil)
    }
}
