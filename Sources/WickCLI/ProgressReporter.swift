// The runner of one transfer's progress meter or bar: reads the clock, feeds the counts to the
// pure `ProgressMeter`/`ProgressBar`, writes what they return to standard error.

/// Draws one transfer's progress on standard error. Used from the transfer's task only.
final class ProgressReporter: TransferProgressSink {
    /// The meter or the bar, whichever the options chose.
    private enum Display {
        case meter(ProgressMeter)
        case bar(ProgressBar)
    }

    /// What to draw.
    private let style: ProgressStyle
    /// The bar's width.
    private let columns: Int
    /// The display and its state, once the transfer has begun.
    private var display: Display?
    /// When the transfer started.
    private let started = ContinuousClock.now
    /// The counts last reported.
    private(set) var progress = TransferProgress()

    /// A reporter drawing `style`, nothing until `begin`.
    /// - Parameter columns: the `COLUMNS` environment variable, which sizes the bar.
    init(style: ProgressStyle, columns: String?) {
        self.style = style
        self.columns = ProgressBar.width(columns: columns)
    }

    /// Draws the first line (the meter's header, zeros), as curl does before it connects, for
    /// a transfer resuming at `resumedFrom` whose request body is `uploadSize` bytes (nil: none).
    func begin(resumedFrom: Int?, uploadSize: Int?) {
        switch style {
        case .meter: display = .meter(ProgressMeter(resumedFrom: resumedFrom))
        case .bar: display = .bar(ProgressBar(width: columns))
        }
        // curl draws its first line before it knows the request body's size.
        update(TransferProgress())
        progress.expectedUpload = uploadSize
    }

    /// Draws `progress` if a line is due.
    func update(_ progress: TransferProgress) {
        self.progress = progress
        let elapsed = ContinuousClock.now - started
        let text: String?
        switch display {
        case nil:
            text = nil
        case .meter(var meter)?:
            text = meter.update(progress, at: elapsed)
            display = .meter(meter)
        case .bar(var bar)?:
            text = bar.update(progress, at: elapsed)
            display = .bar(bar)
        }
        if let text { StandardStreams.write(text, to: StandardStreams.error) }
    }

    /// Draws the last line (the meter's, whatever the time; the bar's if due) and ends it.
    func finish() {
        if case nil = display { begin(resumedFrom: nil, uploadSize: nil) }
        let elapsed = ContinuousClock.now - started
        let text: String
        switch display {
        case nil:
            preconditionFailure("ProgressReporter: no display after begin")
        case .meter(var meter)?:
            text = meter.finish(progress, at: elapsed)
            display = .meter(meter)
        case .bar(var bar)?:
            text = (bar.update(progress, at: elapsed) ?? "") + bar.finish()
            display = .bar(bar)
        }
        StandardStreams.write(text, to: StandardStreams.error)
    }
}
