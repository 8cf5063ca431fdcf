// The runner of one transfer's progress meter or bar: reads the clock, feeds the counts to the
// pure `ProgressMeter`/`ProgressBar`, writes what they return to standard error, and ticks each
// second so the meter moves while nothing arrives, as curl's does.
import Synchronization

/// Draws one transfer's progress on standard error; safe from the transfer's task and its ticker.
final class ProgressReporter: TransferProgressSink, Sendable {
    /// The meter or the bar, whichever the options chose.
    private enum Display {
        case meter(ProgressMeter)
        case bar(ProgressBar)
    }

    /// The display, its counts, and the task that ticks it.
    private struct State {
        /// The display and its state, once the transfer has begun.
        var display: Display?
        /// The counts last reported.
        var progress = TransferProgress()
        /// Redraws each second until `finish`.
        var ticks: Task<Void, Never>?
    }

    /// How often the ticker asks for a line (the meter draws at most one a second anyway).
    static let tickInterval = Duration.seconds(1)

    /// What to draw.
    private let style: ProgressStyle
    /// The bar's width.
    private let columns: Int
    /// When the transfer started.
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    /// A reporter drawing `style`, nothing until `begin`.
    /// - Parameter columns: the `COLUMNS` environment variable, which sizes the bar.
    init(style: ProgressStyle, columns: String?) {
        self.style = style
        self.columns = ProgressBar.width(columns: columns)
    }

    /// Draws the first line (the meter's header, zeros), as curl does before it connects, for
    /// a transfer resuming at `resumedFrom` whose request body is `uploadSize` bytes (nil: none),
    /// and starts the ticker.
    func begin(resumedFrom: Int?, uploadSize: Int?) {
        let ticks = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.tickInterval)
                guard let self, !Task.isCancelled else { return }
                self.draw { _ in }
            }
        }
        draw { state in
            switch style {
            case .meter: state.display = .meter(ProgressMeter(resumedFrom: resumedFrom))
            case .bar: state.display = .bar(ProgressBar(width: columns))
            }
            state.ticks = ticks
        }
        // curl draws its first line before it knows the request body's size.
        state.withLock { $0.progress.expectedUpload = uploadSize }
    }

    /// Draws `progress` if a line is due.
    func update(_ progress: TransferProgress) {
        draw { $0.progress = progress }
    }

    /// Stops the ticker, draws the last line (the meter's, whatever the time; the bar's if
    /// due) and ends it.
    func finish() {
        if state.withLock({ $0.display == nil }) { begin(resumedFrom: nil, uploadSize: nil) }
        state.withLock { state in
            state.ticks?.cancel()
            let elapsed = ContinuousClock.now - started
            let text: String
            switch state.display {
            case nil:
                preconditionFailure("ProgressReporter: no display after begin")
            case .meter(var meter)?:
                text = meter.finish(state.progress, at: elapsed)
                state.display = .meter(meter)
            case .bar(var bar)?:
                text = (bar.update(state.progress, at: elapsed) ?? "") + bar.finish()
                state.display = .bar(bar)
            }
            StandardStreams.write(text, to: StandardStreams.error)
        }
    }

    /// Applies `change`, then writes a line if one is due, under the lock so lines never mix.
    private func draw(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            let elapsed = ContinuousClock.now - started
            let text: String?
            switch state.display {
            case nil:
                text = nil
            case .meter(var meter)?:
                text = meter.update(state.progress, at: elapsed)
                state.display = .meter(meter)
            case .bar(var bar)?:
                text = bar.update(state.progress, at: elapsed)
                state.display = .bar(bar)
            }
            if let text { StandardStreams.write(text, to: StandardStreams.error) }
        }
    }
}
