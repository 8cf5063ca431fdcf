// `-Z -#` on a terminal: a bar per running transfer, redrawn in place with ANSI cursor movement.
// curl 7.88 draws its one combined meter here instead (`ParallelProgressMeter`; README, "The
// wick command", where wick differs).
//
// Rules (the terminal's width and the time arrive as arguments):
//   1. Each running transfer has one line, in the order they started: its label left-aligned in
//      a column of a third of the line (at most `maximumLabelWidth`; a longer label keeps its
//      end, after `...`), a space, a bar of `#` for the bytes moved (both directions) over the
//      total, and ` %5.1f%`; with no total known, the bar's columns stay blank and the bytes so
//      far take the percentage's (`ProgressText.size` and `B`).
//   2. Below them, once a transfer has ended, one line counts them: `N of M transfers done`.
//      A transfer that ends leaves the block: finished ones collapse into that line. At most
//      `maximumLanes` transfers have a line (cursor movement cannot reach above the screen's
//      top); the count's line then comes always and says how many more run (`, K more running`).
//   3. A line is at most `width - 1` columns, so the terminal never wraps one and the count of
//      lines to move up over stays true.
//   4. A redraw moves the cursor up over the lines drawn last (`ESC[nA`, column 0 since each
//      line ended with `\n`), clears to the end of the screen (`ESC[J`) and writes the lines.
//   5. A redraw is due at most ten times a second; the end draws whatever the time, and draws
//      only the count's line (the whole block collapses into it).
//   6. `erase` clears the block so that other text (an error line, `-w`) can be written where it
//      was; the next redraw draws the block whole below that text.

/// The lines of `-Z -#`'s per-transfer bars, as one string of text and ANSI escapes per redraw.
public struct ParallelProgressBars: Sendable {
    /// One running transfer as the bars draw it.
    public struct Lane: Equatable, Sendable {
        /// What names the transfer: its URL.
        public var label: String
        /// Its counts so far.
        public var progress: TransferProgress

        /// The lane of the transfer named `label`, with `progress`.
        public init(label: String, progress: TransferProgress) {
            self.label = label
            self.progress = progress
        }
    }

    /// The most transfers drawn at once, so that the block fits a 24-row terminal.
    static let maximumLanes = 20
    /// The widest label column.
    static let maximumLabelWidth = 30
    /// The least time between two redraws before the end.
    static let redrawInterval = Duration.milliseconds(100)
    /// ANSI: clear from the cursor to the end of the screen.
    static let clearToEnd = "\u{1B}[J"

    /// The terminal's width in columns.
    public let width: Int
    /// How many lines the last redraw left above the cursor.
    private var linesDrawn = 0
    /// When the last redraw happened.
    private var lastDrawn: Duration?

    /// Bars for a terminal `width` columns wide (at least 21, as `ProgressBar.width(columns:)`
    /// gives).
    public init(width: Int) {
        self.width = max(width, 21)
    }

    /// The text that redraws the block for `lanes` (running, in start order) with `finished` of
    /// `total` transfers ended, at `elapsed` since the first started; nil when no redraw is due.
    /// `final` redraws whatever the time and leaves only the count's line.
    public mutating func update(
        _ lanes: [Lane], finished: Int, of total: Int, at elapsed: Duration, final: Bool = false
    ) -> String? {
        if let lastDrawn, !final, elapsed - lastDrawn < Self.redrawInterval { return nil }
        lastDrawn = elapsed
        var lines = final ? [] : lanes.prefix(Self.maximumLanes).map(line)
        let hidden = final ? 0 : max(0, lanes.count - Self.maximumLanes)
        if finished > 0 || hidden > 0 || final {
            let more = hidden > 0 ? ", \(hidden) more running" : ""
            lines.append(String("\(finished) of \(total) transfers done\(more)".prefix(width - 1)))
        }
        let text = erase() + lines.map { $0 + "\n" }.joined()
        linesDrawn = lines.count
        return text
    }

    /// The text that clears the block drawn last and leaves the cursor where it began (empty
    /// when nothing is drawn); the next `update` draws the block whole.
    public mutating func erase() -> String {
        defer { linesDrawn = 0 }
        return linesDrawn == 0 ? "" : "\u{1B}[\(linesDrawn)A" + Self.clearToEnd
    }

    /// One lane's line, `width - 1` columns.
    private func line(_ lane: Lane) -> String {
        let lineWidth = width - 1
        let labelWidth = min(Self.maximumLabelWidth, lineWidth / 3)
        // " " before the bar, " %5.1f%" after it.
        let barWidth = lineWidth - labelWidth - 1 - 7
        let progress = lane.progress
        let total = (progress.expectedDownload ?? 0) + (progress.expectedUpload ?? 0)
        let point = progress.downloaded + progress.uploaded
        let bar: String
        let figure: String
        if total > 0 {
            let fraction = Double(point) / Double(max(total, point))
            bar = String(repeating: "#", count: Int(Double(barWidth) * fraction))
            // `%5.1f` of the percentage: tenths, rounded to nearest.
            let tenths = Int((fraction * 1000).rounded())
            figure = " " + ProgressText.padded("\(tenths / 10).\(tenths % 10)", to: 5) + "%"
        } else {
            bar = ""
            figure = " " + ProgressText.size(point) + "B"
        }
        return Self.fitted(lane.label, to: labelWidth) + " " + bar
            + String(repeating: " ", count: barWidth - bar.count) + figure
    }

    /// `label` in exactly `width` columns: padded on the right, or its end after `...`.
    static func fitted(_ label: String, to width: Int) -> String {
        if label.count <= width { return label + String(repeating: " ", count: width - label.count) }
        return "..." + label.suffix(width - 3)
    }
}
