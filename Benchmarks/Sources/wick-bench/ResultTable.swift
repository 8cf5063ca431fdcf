// One suite's results: printed as an aligned table and written as markdown into RESULTS.md.
import Foundation

/// A suite's table of figures with its notes.
struct ResultTable {
    /// The suite's key in RESULTS.md (`parser`, `decoders`, `reactor`).
    let suite: String
    let title: String
    let columns: [String]
    var rows: [[String]] = []
    var notes: [String] = []

    /// The table as aligned plain text for the terminal.
    var plainText: String {
        let widths = columns.indices.map { column in
            ([columns[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        var text = "\n== \(title) ==\n" + line(columns) + "\n"
        text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { text += line(row) + "\n" }
        for note in notes { text += "* " + note + "\n" }
        return text
    }

    /// The table as a markdown section, stamped with the date and the machine.
    var markdown: String {
        var text = "## \(title)\n\n"
        text += "Measured \(Machine.timestamp) on \(Machine.summary).\n\n"
        text += "| " + columns.joined(separator: " | ") + " |\n"
        text += "|" + columns.map { _ in "---" }.joined(separator: "|") + "|\n"
        for row in rows { text += "| " + row.joined(separator: " | ") + " |\n" }
        if !notes.isEmpty { text += "\n" + notes.map { "- " + $0 }.joined(separator: "\n") + "\n" }
        return text
    }

    /// Replaces this suite's section of the results file at `url` (creating the file with its
    /// preamble if needed), leaving the other suites' sections as they were.
    func write(into url: URL) throws {
        let begin = "<!-- suite:\(suite) -->"
        let end = "<!-- /suite:\(suite) -->"
        var document = (try? String(contentsOf: url, encoding: .utf8)) ?? Self.preamble
        let section = begin + "\n" + markdown + end
        if let start = document.range(of: begin),
            let stop = document.range(of: end, range: start.upperBound..<document.endIndex)
        {
            document.replaceSubrange(start.lowerBound..<stop.upperBound, with: section)
        } else {
            if !document.hasSuffix("\n\n") { document += document.hasSuffix("\n") ? "\n" : "\n\n" }
            document += section + "\n"
        }
        try document.write(to: url, atomically: true, encoding: .utf8)
    }

    static let preamble = """
        # Wick benchmark results

        Written by `Scripts/bench` (sections are replaced one suite at a time). Every figure is the
        median of several rounds in which Wick and its peer ran in alternation in the same process,
        so the ratios are the figures to trust: these VMs are shared and noisy. "Speed ratio" is
        Wick's speed divided by the peer's (above 1: Wick is faster). Allocation counts are counts
        (a malloc interposer), and instruction counts come from `valgrind --tool=callgrind`, so both
        repeat exactly.

        """
}
