// Ends a request's attempt by hand, as a run does, for tests of retriers and interceptors.
import Foundation
import WickCore
import WickTransport

@testable import Wick

extension Request {
    /// Records an attempt of `self.request` that got `status` and failed with `error`.
    func recordAttempt(status: HTTPStatus, error: WickError) {
        let response = TransportResponse(
            status: status, version: .http1_1, headers: HTTPHeaders(), body: Data(), trailers: nil,
            metrics: TransportMetrics(started: .now()))
        attemptEnded(Outcome(request: request, response: response, error: error))
    }
}
