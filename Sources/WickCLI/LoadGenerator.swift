// `wick bench`: load on one URL through Session, the way a daemon that embeds Wick sends it.
import FoundationEssentials
import Glibc
import Wick

/// Runs `wick bench`: `concurrency` tasks send requests on one `Session` (over HTTP/1.1 a
/// connection each, over HTTP/2 a stream each) until `requests` are sent or `duration` has
/// passed, then reports (`LoadReport`).
public struct LoadGenerator: Sendable {
    let options: LoadOptions

    /// A generator for `options`.
    public init(options: LoadOptions) {
        self.options = options
    }

    /// Runs `wick bench` with `arguments` (without `bench`) and returns the exit status: 0 when
    /// every request got a response, 1 when some failed, 2 for bad arguments, curl's code for
    /// unusable trust settings (77 for `--cacert`).
    public static func run(_ arguments: [String]) async -> Int32 {
        let options: LoadOptions
        do {
            options = try LoadOptions(arguments: arguments)
        } catch {
            StandardStreams.write("wick bench: \(error.message)\n\(LoadOptions.usage)", to: StandardStreams.error)
            return 2
        }
        let report: LoadReport
        do {
            report = try await LoadGenerator(options: options).run()
        } catch {
            StandardStreams.write("wick bench: \(error)\n", to: StandardStreams.error)
            return Int32(error.code.rawValue)
        }
        let text =
            options.json
            ? report.json(url: options.url, options: options) : report.text(url: options.url, options: options)
        StandardStreams.write(text, to: StandardStreams.output)
        return report.errors.isEmpty ? 0 : 1
    }

    /// Sends the load and measures it.
    /// - Throws: `CommandFailure` (77) when `--cacert` or `--capath` holds no certificate; no
    ///   failed request throws (they are counted in the report).
    public func run() async throws(CommandFailure) -> LoadReport {
        let session = try makeSession()
        var headers = HTTPHeaders()
        for (name, value) in options.headers { headers.add(name: name, value: value) }
        let schedule = LoadSchedule(options: options, start: ContinuousClock.now)
        let cpuBefore = Self.processCPUNanoseconds()
        let started = ContinuousClock.now
        var report = await withTaskGroup(of: LoadReport.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask { [headers] in
                    await Self.worker(session, url: options.url, headers: headers, schedule: schedule)
                }
            }
            var merged = LoadReport()
            for await part in group {
                merged.latencies += part.latencies
                merged.errors.merge(part.errors, uniquingKeysWith: +)
                merged.statuses.merge(part.statuses, uniquingKeysWith: +)
                merged.protocols.merge(part.protocols, uniquingKeysWith: +)
                merged.bodyBytes += part.bodyBytes
            }
            return merged
        }
        report.elapsed = ContinuousClock.now - started
        report.cpuNanoseconds = Self.processCPUNanoseconds() - cpuBefore
        let pool = await session.poolStatistics().total
        report.connectionsCreated = pool.created
        report.connectionsReused = pool.reused
        await session.shutdown()
        return report
    }

    /// The session the load goes through: `Session`'s defaults, with at most `--connections`
    /// (else `-c`) connections to the origin, `-m` as each request's timeout, `--busy-poll`,
    /// no cookie store, and the HTTP versions and trust of the curl options, applied by the
    /// same code as `wick`'s (`TransferOptions.applyVersionsAndTrustRoots(to:)` and
    /// `trustManager()`).
    /// - Throws: `CommandFailure` (77) when `--cacert` or `--capath` holds no certificate.
    private func makeSession() throws(CommandFailure) -> Session {
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = options.connectionLimit
        configuration.requestTimeout = .milliseconds(Int64(options.timeout * 1_000))
        configuration.cookieStorage = nil
        configuration.busyPollDuration = options.busyPoll
        try options.curlSettings.applyVersionsAndTrustRoots(to: &configuration)
        return Session(configuration: configuration, serverTrustManager: try options.curlSettings.trustManager())
    }

    /// One of the in-flight lanes: takes the next request's slot from `schedule` until none is
    /// left, waits for its intended start (with `--rate`), sends it and records the outcome.
    private static func worker(_ session: Session, url: String, headers: HTTPHeaders, schedule: LoadSchedule) async
        -> LoadReport
    {
        var report = LoadReport()
        while let intended = schedule.next() {
            let now = ContinuousClock.now
            if let intended, intended > now { try? await Task.sleep(until: intended) }
            let start = intended ?? ContinuousClock.now
            let response = await session.request(url, headers: headers).serializingData().response
            let latency = ContinuousClock.now - start
            switch response.result {
            case .success(let body):
                report.latencies.append(
                    UInt64(latency.components.seconds) * 1_000_000_000
                        + UInt64(latency.components.attoseconds / 1_000_000_000))
                report.bodyBytes += body.count
                let status = response.response?.statusCode ?? 0
                report.statuses["\(status / 100)xx", default: 0] += 1
                if let version = response.metrics?.last.httpVersion { report.protocols["\(version)", default: 0] += 1 }
            case .failure(let error):
                report.errors[Self.kind(of: error), default: 0] += 1
            }
        }
        return report
    }

    /// A short name for the kind of `error`, to count failures by.
    static func kind(of error: WickError) -> String {
        switch error {
        case .sessionTaskFailed(.timedOut(let phase, _)): "timedOut(\(phase))"
        case .sessionTaskFailed(.connectionFailed(let failure)): "connectionFailed(\(failure.kind))"
        case .sessionTaskFailed(.connectionLost): "connectionLost"
        case .sessionTaskFailed(let failure): "sessionTaskFailed(\(String(describing: failure).prefix(40)))"
        default: String(String(describing: error).prefix(60))
        }
    }

    /// The process's user and system CPU time so far.
    static func processCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
