// curl's progress meter for `-Z`: one line for all transfers at once, redrawn in place (`\r`).
//
// Rules, as curl 7.88's tool_progress.c draws it (time arrives as an argument):
//   1. The header comes once, with the first line.
//   2. A line is drawn when more than 500 ms have passed since the last one, and always at the
//      end, which ends it with a newline (in its last five columns, blank otherwise).
//   3. DL% and UL% are the bytes so far over the sum of every total announced, shown only when
//      every transfer still running has announced one (`--` otherwise).
//   4. The speed is the faster direction's bytes over the time since the oldest of the last ten
//      lines, this one included (since the start until ten were drawn); the times are the download total over it
//      and what is left of it over it, `--:--:--` without a speed or a known total.

/// The lines of curl's `-Z` progress meter.
public struct ParallelProgressMeter: Sendable {
    /// What the meter draws at one moment, summed over the transfers.
    public struct Totals: Equatable, Sendable {
        /// Bytes received by every transfer, finished ones included.
        public var downloaded = 0
        /// Bytes sent by every transfer, finished ones included.
        public var uploaded = 0
        /// The sum of the body sizes announced so far; nil while a running transfer has not
        /// announced its own.
        public var expectedDownload: Int?
        /// The sum of the request body sizes; nil while a running transfer has none.
        public var expectedUpload: Int?
        /// Transfers started so far.
        public var started = 0
        /// Transfers running now.
        public var running = 0

        /// Totals of nothing yet.
        public init(
            downloaded: Int = 0, uploaded: Int = 0, expectedDownload: Int? = nil, expectedUpload: Int? = nil,
            started: Int = 0, running: Int = 0
        ) {
            self.downloaded = downloaded
            self.uploaded = uploaded
            self.expectedDownload = expectedDownload
            self.expectedUpload = expectedUpload
            self.started = started
            self.running = running
        }
    }

    /// The header curl writes above the meter.
    public static let header = "DL% UL%  Dled  Uled  Xfers  Live Total     Current  Left    Speed\n"
    /// The least time between two lines before the end.
    static let redrawInterval = Duration.milliseconds(500)
    /// How many drawn lines the speed spans.
    static let speedSampleCount = 10

    /// When the last line was drawn.
    private var lastDrawn: Duration?
    /// The counts at each of the last `speedSampleCount` lines drawn.
    private var samples: [(downloaded: Int, uploaded: Int, at: Duration)] = []

    /// A meter that has drawn nothing.
    public init() {}

    /// The text to write for `totals` at `elapsed` since the first transfer started, or nil
    /// when nothing is due; `final` draws whatever the time and ends the line.
    public mutating func update(_ totals: Totals, at elapsed: Duration, final: Bool = false) -> String? {
        if let lastDrawn, !final, elapsed - lastDrawn <= Self.redrawInterval { return nil }
        let header = lastDrawn == nil ? Self.header : ""
        lastDrawn = elapsed
        samples.append((totals.downloaded, totals.uploaded, elapsed))
        if samples.count > Self.speedSampleCount { samples.removeFirst() }
        var base = (downloaded: 0, uploaded: 0, at: Duration.zero)
        if samples.count == Self.speedSampleCount { base = samples[0] }
        let seconds = max((elapsed - base.at).seconds, 0.001)
        let downloadSpeed = Int(Double(totals.downloaded - base.downloaded) / seconds)
        let uploadSpeed = Int(Double(totals.uploaded - base.uploaded) / seconds)
        let speed = max(downloadSpeed, uploadSpeed)
        var total = 0
        var left = 0
        if let expected = totals.expectedDownload, speed > 0 {
            total = expected / speed
            left = (expected - totals.downloaded) / speed
        }
        let columns = [
            Self.percent(totals.downloaded, of: totals.expectedDownload),
            Self.percent(totals.uploaded, of: totals.expectedUpload),
            ProgressText.size(totals.downloaded), ProgressText.size(totals.uploaded),
            ProgressText.padded(String(totals.started), to: 5), ProgressText.padded(String(totals.running), to: 5),
            " " + ProgressText.duration(seconds: total), ProgressText.duration(seconds: Int(elapsed.components.seconds)),
            ProgressText.duration(seconds: left), ProgressText.size(speed),
            final ? "    \n" : "     ",
        ]
        return header + "\r" + columns.joined(separator: " ")
    }

    /// `%-3s` of the whole percentage of `done` over `total`, or `--` with no total.
    static func percent(_ done: Int, of total: Int?) -> String {
        guard let total, total > 0 else { return "-- " }
        return ProgressText.padded(String(done * 100 / total), to: 3)
    }
}
