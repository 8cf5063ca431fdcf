// The runner of `-Z`'s meter: every transfer's counts summed under one lock, the meter drawn on
// standard error when a transfer reports or the clock ticks, and once at the end.
import Synchronization

/// Draws one `ParallelProgressMeter` for all of `-Z`'s transfers; safe from any task.
final class ParallelProgressReporter: Sendable {
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
        var meter = ParallelProgressMeter()
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
                if let size = progress.expectedDownload, announcedDownloads.insert(index).inserted { expectedDownload += size }
                if let size = progress.expectedUpload, announcedUploads.insert(index).inserted { expectedUpload += size }
            }
            let downloadsKnown = running.values.allSatisfy { $0.expectedDownload != nil }
            let uploadsKnown = running.values.allSatisfy { $0.expectedUpload != nil }
            return ParallelProgressMeter.Totals(
                downloaded: finishedDownloaded + running.values.reduce(0) { $0 + $1.downloaded },
                uploaded: finishedUploaded + running.values.reduce(0) { $0 + $1.uploaded },
                expectedDownload: downloadsKnown ? expectedDownload : nil,
                expectedUpload: uploadsKnown ? expectedUpload : nil, started: started, running: started - finished)
        }
    }

    private let state = Mutex(State())
    /// When the first transfer started.
    private let began = ContinuousClock.now

    /// A meter with no transfers yet.
    init() {}

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
        let text = state.withLock { state in
            let totals = state.totals()
            return state.meter.update(totals, at: ContinuousClock.now - began, final: true)
        }
        if let text { StandardStreams.write(text, to: StandardStreams.error) }
    }

    /// Applies `body` to the counts and draws a line if one is due. The write happens under the
    /// lock, so lines never interleave.
    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            body(&state)
            let totals = state.totals()
            if let text = state.meter.update(totals, at: ContinuousClock.now - began) {
                StandardStreams.write(text, to: StandardStreams.error)
            }
        }
    }
}
