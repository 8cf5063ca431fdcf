// curl's `-#` progress bar: one line of `#` and a percentage, redrawn in place (`\r`).
//
// Rules, as curl 7.88's tool_cb_prg.c draws it (time arrives as an argument):
//   1. The bar is `width - 7` columns of `#` in proportion to the bytes moved (both directions)
//      over the total, padded with spaces, then ` %5.1f%`.
//   2. A line is drawn only when the count has changed, and at most ten times a second except
//      at 100%.
//   3. With no total known, curl animates a bouncing marker instead; this bar draws nothing
//      until the end.
//   4. The bar ends with `\n` when the transfer does.

/// The lines of curl's `-#` progress bar for one transfer.
public struct ProgressBar: Sendable {
    /// The bar's width when nothing says otherwise (curl's default).
    public static let defaultWidth = 79
    /// The widest bar curl draws.
    public static let maximumWidth = 256
    /// The least time between two lines below 100%.
    static let redrawInterval = Duration.milliseconds(100)

    /// The whole line's width in columns, the percentage included.
    public let width: Int
    /// The count last drawn (0 before any).
    private var previousPoint = 0
    /// When the last line was drawn.
    private var previousTime: Duration?

    /// A bar `width` columns wide (at most `maximumWidth`).
    public init(width: Int = ProgressBar.defaultWidth) {
        self.width = min(width, Self.maximumWidth)
    }

    /// The width curl takes from the environment: `COLUMNS` when it is a number above 20 and
    /// below 10,000, else `defaultWidth` (curl asks the terminal too; this does not).
    public static func width(columns: String?) -> Int {
        guard let columns, let number = Int(columns), number > 20, number < 10_000 else { return defaultWidth }
        return number
    }

    /// The line to write for `progress` at `elapsed` since the transfer started, or nil when
    /// nothing is due.
    public mutating func update(_ progress: TransferProgress, at elapsed: Duration) -> String? {
        let total = (progress.expectedDownload ?? 0) + (progress.expectedUpload ?? 0)
        let point = progress.downloaded + progress.uploaded
        guard total > 0, point != previousPoint else { return nil }
        if let previousTime, elapsed - previousTime < Self.redrawInterval, point < total { return nil }
        previousPoint = point
        previousTime = elapsed
        let fraction = Double(point) / Double(max(total, point))
        let barWidth = width - 7
        let marks = String(repeating: "#", count: min(Int(Double(barWidth) * fraction), Self.maximumWidth))
        // `%5.1f` of the percentage: tenths, rounded to nearest.
        let tenths = Int((fraction * 1000).rounded())
        return "\r" + marks + String(repeating: " ", count: max(0, barWidth - marks.count)) + " "
            + ProgressText.padded("\(tenths / 10).\(tenths % 10)", to: 5) + "%"
    }

    /// The end of the bar: its line break.
    public func finish() -> String {
        "\n"
    }
}
