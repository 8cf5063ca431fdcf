// Waiting for a request's end, cancelled or not: its state cannot say (a cancelled request stays
// `.cancelled`, as in Alamofire), so tests wait on the run's own completion.
@testable import Wick

/// Returns once `request` has finished (its outcome is known), whatever the outcome.
func finished(_ request: Request) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        request.whenFinished { _ in continuation.resume() }
    }
}
