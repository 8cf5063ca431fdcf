// wick-soak: a long run of mixed requests against nginx and the fault server, with faults
// injected, that fails if descriptors, memory, threads or pooled connections grow, or if any
// request is lost, answered wrongly, or (not being idempotent) sent twice.
//
//   wick-soak [--requests N] [--concurrency C] [--fault-rate R] [--duration S] [--output DIR] [--seed S]
//
// Writes summary.txt, samples.csv and plot.svg (RSS and descriptors over time) into DIR.
import Foundation

do {
    let options = try SoakOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    try FileManager.default.createDirectory(at: options.output, withIntermediateDirectories: true)
    let report = try await SoakRun(options: options).run()
    let summary = SoakSummary(options: options, report: report)
    print(summary.text)
    try summary.text.write(to: options.output.appendingPathComponent("summary.txt"), atomically: true, encoding: .utf8)
    try ([SoakSample.csvHeader] + report.samples.map(\.csvLine)).joined(separator: "\n")
        .write(to: options.output.appendingPathComponent("samples.csv"), atomically: true, encoding: .utf8)
    try SoakPlot.svg(report.samples).write(to: options.output.appendingPathComponent("plot.svg"), atomically: true, encoding: .utf8)
    print("wick soak: summary, samples and plot in \(options.output.path)")
    exit(summary.problems.isEmpty ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("wick-soak: \(error)\n".utf8))
    exit(2)
}
