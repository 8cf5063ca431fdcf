// curl gives up on the first failed connect (7, or 28 past --connect-timeout); Wick's pool keeps
// a request waiting through its backoff until the request's deadline. This watch notices, from
// the pool's public statistics, that an origin's connects failed and no connection is left to
// serve the waiting request, and cancels the request, so the command fails as curl does.
import Wick

/// Cancels a request whose origin's connects have failed while it waits for a connection.
enum ConnectFailureWatch {
    /// The first wait between readings of the pool's statistics; it doubles up to
    /// `longestInterval`, so a connect that fails at once is noticed at once, and a long
    /// transfer costs a reading every 100 ms.
    static let firstInterval = Duration.milliseconds(5)
    /// The longest wait between readings.
    static let longestInterval = Duration.milliseconds(100)

    /// Watches `session`'s pools until cancelled; returns true if it cancelled `request`
    /// because an origin had failed connects, no live connection and a waiting request.
    static func watch(_ session: Session, cancelling request: Request) -> Task<Bool, Never> {
        Task {
            var interval = firstInterval
            while (try? await Task.sleep(for: interval)) != nil {
                interval = min(interval * 2, longestInterval)
                let statistics = await session.poolStatistics()
                let stuck = statistics.origins.values.contains {
                    $0.failedAttempts > 0 && $0.live == 0 && $0.waiting > 0
                }
                if stuck {
                    request.cancel()
                    return true
                }
            }
            return false
        }
    }
}
