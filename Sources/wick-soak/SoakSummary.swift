// The soak's verdict and the text a person reads: counts, figures, growth, and what went wrong.
import Foundation

/// Turns a run's report into the summary and the pass or fail.
struct SoakSummary {
    let options: SoakOptions
    let report: SoakRun.Report

    /// The problems that fail the run; empty when it passed.
    var problems: [String] {
        let counts = report.counts
        var problems: [String] = []
        if counts.completed != counts.issued {
            problems.append("\(counts.issued - counts.completed) requests never completed")
        }
        if counts.completedTwice > 0 { problems.append("\(counts.completedTwice) requests completed twice") }
        if counts.unexpected > 0 { problems.append("\(counts.unexpected) unexpected outcomes") }
        if !report.repeatedPOSTs.isEmpty {
            problems.append("POSTs sent twice: " + report.repeatedPOSTs.prefix(10).joined(separator: ", "))
        }
        if report.unseenSuccesses > 0 {
            problems.append("\(report.unseenSuccesses) nginx successes missing from its access log")
        }
        for growth in report.growth where growth.grew {
            problems.append(
                "\(growth.name) grew after warm-up: median \(Self.figure(growth.settled)) → \(Self.figure(growth.last))"
                    + " (allowed +\(Self.figure(growth.allowed)))")
        }
        return problems
    }

    var text: String {
        let counts = report.counts
        let seconds = Double(report.elapsed.components.seconds) + Double(report.elapsed.components.attoseconds) / 1e18
        let samples = report.samples
        let peakRSS = samples.map(\.residentBytes).max() ?? 0
        let peakDescriptors = samples.map(\.descriptors).max() ?? 0
        let peakThreads = samples.map(\.threads).max() ?? 0
        var lines = [
            "wick soak: \(counts.completed) of \(counts.issued) requests accounted for in \(String(format: "%.0f", seconds)) s"
                + " (\(String(format: "%.0f", Double(counts.completed) / max(seconds, 0.001))) /s), concurrency \(options.concurrency),"
                + " fault rate \(options.faultRate), seed \(options.seed)",
            "  succeeded:                 \(counts.succeeded)",
            "  succeeded after a replay:  \(counts.replayedAfterFault) (idempotent requests that met a fault)",
            "  faults injected:           \(counts.faultsMet.values.reduce(0, +))",
        ]
        for fault in SoakFault.allCases {
            let met = counts.faultsMet[fault] ?? 0
            let failed = counts.expectedFailures[fault] ?? 0
            let replayed = counts.replayedByFault[fault] ?? 0
            lines.append(
                "    \(fault.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0)) \(met) met, \(failed) failed as expected,"
                    + " \(replayed) succeeded after a replay")
        }
        lines += [
            "  idle-close races:          \(counts.idleCloseRaces) (lost before the server read them; never replayed if POST)",
            "  unexpected:                \(counts.unexpected)",
            "  POSTs sent twice:          \(report.repeatedPOSTs.count) (fault server counts and nginx's access log)",
            "  RSS:          peak \(Self.mebibytes(peakRSS)), final \(Self.mebibytes(samples.last?.residentBytes ?? 0))",
            "  descriptors:  peak \(peakDescriptors), final \(samples.last?.descriptors ?? 0)",
            "  threads:      peak \(peakThreads), final \(samples.last?.threads ?? 0)",
            "  pool:         peak \(samples.map(\.poolConnections).max() ?? 0) connections, final \(samples.last?.poolConnections ?? 0)",
            "  growth after warm-up (median of the last third against the second):",
        ]
        for growth in report.growth {
            lines.append(
                growth.judged
                    ? "    \(growth.name): \(Self.figure(growth.settled)) → \(Self.figure(growth.last)) \(growth.grew ? "GREW" : "flat")"
                    : "    \(growth.name): too few samples to judge")
        }
        for (kind, count) in counts.unexpectedByKind.sorted(by: { $0.value > $1.value }).prefix(10) {
            lines.append("  unexpected, \(count)× \(kind)")
        }
        lines += counts.examples.map { "  unexpected: \($0)" }
        let problems = self.problems
        lines.append(problems.isEmpty ? "PASS" : "FAIL: " + problems.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    private static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    private static func figure(_ value: Double) -> String { String(format: "%.1f", value) }
}
