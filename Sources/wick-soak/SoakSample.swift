// One reading of the process's resources and the pool's gauges, taken every second.
import Foundation
import Wick
import WickTestSupport

/// What the process holds at one moment.
struct SoakSample: Sendable {
    /// Seconds since the run began.
    let seconds: Double
    /// Open descriptors (`/proc/self/fd`).
    let descriptors: Int
    /// Resident memory in bytes (`/proc/self/statm`, pages × page size).
    let residentBytes: Int
    /// Threads (`/proc/self/task`).
    let threads: Int
    /// The pool's connections holding a socket or an attempt, summed over origins.
    let poolConnections: Int
    /// Requests waiting in the pool for a connection.
    let poolWaiting: Int
    /// Requests completed so far.
    let completed: Int

    /// Reads the process's figures and `session`'s pool now.
    static func take(at seconds: Double, session: Session, completed: Int) async -> SoakSample {
        let pool = await session.poolStatistics().total
        return SoakSample(
            seconds: seconds, descriptors: directoryNames("/proc/self/fd").count, residentBytes: residentBytes(),
            threads: directoryNames("/proc/self/task").count, poolConnections: pool.live, poolWaiting: pool.waiting,
            completed: completed)
    }

    /// The second field of `/proc/self/statm` (resident pages) in bytes; 0 if unreadable.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The CSV header for `csvLine`.
    static let csvHeader = "seconds,descriptors,resident_bytes,threads,pool_connections,pool_waiting,completed"

    var csvLine: String {
        String(format: "%.1f", seconds) + ",\(descriptors),\(residentBytes),\(threads),\(poolConnections),\(poolWaiting),\(completed)"
    }
}
