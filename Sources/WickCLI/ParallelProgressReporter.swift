// The runner of `-Z`'s progress: every transfer's counts kept under one lock, curl's combined
// meter or (`-#` on a terminal) a bar per transfer drawn on standard error when a transfer
// reports or the clock ticks, and once at the end.
import Synchronization

/// Draws `-Z`'s progress for all of its transfers; safe from any task.
final class ParallelProgressReporter: Sendable {
    /// What is drawn.
    enum Display {
        /// curl's one line for all transfers.
        case meter(ParallelProgressMeter)
        /// A line per running transfer (`labels[index]` names the transfer at `index`).
        case bars(ParallelProgressBars, labels: [String])
    }

    /// One transfer's lane: what it reports goes to the shared meter.
    struct Lane: TransferProgressSink {
        /// The meter's runner.
        let reporter: ParallelProgressReporter
        /// The transfer's position among the URLs.
        let index: Int

        func begin(resumedFrom: Int?, uploadSize: Int?) {
            reporter.change { $0.running[index] = TransferProgress(expectedUpload: uploadSize) }
        }

        func update(_ progress: TransferProgress) {
            reporter.change { $0.running[index] = progress }
        }

        func finish() {
            reporter.change { state in
                let last = state.running.removeValue(forKey: index) ?? TransferProgress()
                state.finishedDownloaded += last.downloaded
                state.finishedUploaded += last.uploaded
                state.finished += 1
            }
        }
    }

    /// The counts, and the meter that draws them.
    private struct State {
        var display: Display
        /// Each running transfer's counts, by index.
        var running: [Int: TransferProgress] = [:]
        /// Bytes of the transfers that have ended.
        var finishedDownloaded = 0
        var finishedUploaded = 0
        /// Indexes whose totals are in the sums (a total counts once, as curl adds it once).
        var announcedDownloads: Set<Int> = []
        var announcedUploads: Set<Int> = []
        var expectedDownload = 0
        var expectedUpload = 0
        /// Transfers started so far (running from then, as curl counts them), and ended.
        var started = 0
        var finished = 0

        /// The sums the meter draws.
        mutating func totals() -> ParallelProgressMeter.Totals {
            for (index, progress) in running {
                if let size = progress.expectedDownload, announcedDownloads.insert(index).inserted {
                    expectedDownload += size
                }
                if let size = progress.expectedUpload, announcedUploads.insert(index).inserted {
                    expectedUpload += size
                }
            }
            let downloadsKnown = running.values.allSatisfy { $0.expectedDownload != nil }
            let uploadsKnown = running.values.allSatisfy { $0.expectedUpload != nil }
            return ParallelProgressMeter.Totals(
                downloaded: finishedDownloaded + running.values.reduce(0) { $0 + $1.downloaded },
                uploaded: finishedUploaded + running.values.reduce(0) { $0 + $1.uploaded },
                expectedDownload: downloadsKnown ? expectedDownload : nil,
                expectedUpload: uploadsKnown ? expectedUpload : nil, started: started, running: started - finished)
        }

        /// The text that draws the counts at `elapsed`, or nil when none is due; `final` draws
        /// whatever the time and ends the display.
        mutating func draw(at elapsed: Duration, final: Bool = false) -> String? {
            switch display {
            case .meter(var meter):
                let text = meter.update(totals(), at: elapsed, final: final)
                display = .meter(meter)
                return text
            case .bars(var bars, let labels):
                let lanes = running.sorted { $0.key < $1.key }.map {
                    ParallelProgressBars.Lane(label: labels[$0.key], progress: $0.value)
                }
                let text = bars.update(lanes, finished: finished, of: labels.count, at: elapsed, final: final)
                display = .bars(bars, labels: labels)
                return text
            }
        }

        /// The text that clears what is drawn so that other text can take its place (the bars'
        /// block; nothing for the meter, whose line the text follows as in curl).
        mutating func erase() -> String {
            guard case .bars(var bars, let labels) = display else { return "" }
            let text = bars.erase()
            display = .bars(bars, labels: labels)
            return text
        }
    }

    private let state: Mutex<State>
    /// When the first transfer started.
    private let began = ContinuousClock.now

    /// A reporter drawing `display`, with no transfers yet.
    init(display: Display) {
        state = Mutex(State(display: display))
    }

    /// Counts a transfer as started, before its task runs (curl counts each when it adds it).
    func add() {
        state.withLock { $0.started += 1 }
    }

    /// The lane of the transfer at `index`.
    func lane(_ index: Int) -> Lane {
        Lane(reporter: self, index: index)
    }

    /// Draws a line if one is due (the clock's tick: curl redraws while nothing arrives too).
    func tick() {
        change { _ in }
    }

    /// Draws the last line and its newline.
    func finish() {
        let text = state.withLock { $0.draw(at: ContinuousClock.now - began, final: true) }
        if let text { StandardStreams.write(text, to: StandardStreams.error) }
    }

    /// Runs `write` (which writes a transfer's `-w` and error line) where the bars were, so
    /// that the next redraw draws them below its text instead of over it.
    func writingAbove<Result: Sendable>(_ write: () -> Result) -> Result {
        state.withLock { state in
            StandardStreams.write(state.erase(), to: StandardStreams.error)
            return write()
        }
    }

    /// Applies `body` to the counts and draws a line if one is due. The write happens under the
    /// lock, so lines never interleave.
    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            body(&state)
            if let text = state.draw(at: ContinuousClock.now - began) {
                StandardStreams.write(text, to: StandardStreams.error)
            }
        }
    }
}
