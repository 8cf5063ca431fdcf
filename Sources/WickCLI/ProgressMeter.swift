// curl's default progress meter: a two-line header, then one line redrawn in place (`\r`).
//
// Rules, as curl 7.88's lib/progress.c draws it (time arrives as an argument; nothing here
// reads a clock or writes a stream):
//   1. The first update writes the header (after `** Resuming transfer from byte position N`
//      when resuming), then a line.
//   2. After that a line is drawn only when the whole second since the start has changed, so at
//      most once a second; `finish` always draws one more, then ends the line with `\n`.
//   3. The average speeds are the bytes over the time since the start (in microseconds, at
//      least one). The current speed is the bytes moved between the oldest and the newest of the
//      last six drawn lines over the time between them (in milliseconds, at least one); with
//      only one line drawn, it is the two average speeds added.
//   4. A direction's percentage and time estimate exist only when its total is known and its
//      speed is above zero: the estimate is total / speed in whole seconds, the larger of the
//      two directions' is "Total", and "Left" is it minus the whole seconds spent.

/// The lines of curl's progress meter for one transfer.
public struct ProgressMeter: Sendable {
    /// The header curl writes above the meter.
    public static let header = """
          % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
                                         Dload  Upload   Total   Spent    Left  Speed

        """

    /// How many drawn lines the current speed spans (curl's `CURR_TIME`: five seconds and one).
    static let speedSampleCount = 6

    /// The byte offset a resumed transfer started at, announced above the header.
    let resumedFrom: Int?
    /// Whether the header has been written.
    private var wroteHeader = false
    /// The whole second (since the start) of the last line drawn.
    private var lastDrawnSecond: Int64?
    /// Bytes moved (both directions) when each of the last `speedSampleCount` lines was drawn.
    private var samples: [(bytes: Int, at: Duration)] = []
    /// The current speed as last computed, in bytes per second.
    private var currentSpeed = 0

    /// A meter for a transfer that resumes at `resumedFrom` (nil: from the start).
    public init(resumedFrom: Int? = nil) {
        self.resumedFrom = resumedFrom
    }

    /// The text to write for `progress` at `elapsed` since the transfer started: the header the
    /// first time, then a line when a new second has begun; nil when nothing is due.
    public mutating func update(_ progress: TransferProgress, at elapsed: Duration) -> String? {
        let second = elapsed.components.seconds
        guard second != lastDrawnSecond else { return nil }
        return draw(progress, at: elapsed)
    }

    /// The final line for `progress` at `elapsed`, drawn whatever the time, and its `\n`.
    public mutating func finish(_ progress: TransferProgress, at elapsed: Duration) -> String {
        draw(progress, at: elapsed) + "\n"
    }

    /// Records a drawn line's sample and returns the header (the first time) and the line.
    private mutating func draw(_ progress: TransferProgress, at elapsed: Duration) -> String {
        lastDrawnSecond = elapsed.components.seconds
        let microseconds = max(1, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
        let downloadSpeed = Self.speed(progress.downloaded, microseconds: microseconds)
        let uploadSpeed = Self.speed(progress.uploaded, microseconds: microseconds)
        samples.append((progress.downloaded + progress.uploaded, elapsed))
        if samples.count > Self.speedSampleCount { samples.removeFirst() }
        if let oldest = samples.first, samples.count > 1 {
            let span = elapsed - oldest.at
            let milliseconds = max(1, span.components.seconds * 1000 + span.components.attoseconds / 1_000_000_000_000_000)
            currentSpeed = Int((Int64(samples[samples.count - 1].bytes - oldest.bytes) * 1000) / milliseconds)
        } else {
            currentSpeed = downloadSpeed + uploadSpeed
        }

        let download = Self.estimate(total: progress.expectedDownload, done: progress.downloaded, speed: downloadSpeed)
        let upload = Self.estimate(total: progress.expectedUpload, done: progress.uploaded, speed: uploadSpeed)
        let totalSeconds = max(download.seconds, upload.seconds)
        let spentSeconds = Int(elapsed.components.seconds)
        let expected = (progress.expectedUpload ?? progress.uploaded) + (progress.expectedDownload ?? progress.downloaded)
        let done = progress.downloaded + progress.uploaded
        var text = ""
        if !wroteHeader {
            wroteHeader = true
            if let resumedFrom { text += "** Resuming transfer from byte position \(resumedFrom)\n" }
            text += Self.header
        }
        text += "\r" + ProgressText.percent(Self.percent(done, of: expected)) + " " + ProgressText.size(expected)
        text += "  " + ProgressText.percent(download.percent) + " " + ProgressText.size(progress.downloaded)
        text += "  " + ProgressText.percent(upload.percent) + " " + ProgressText.size(progress.uploaded)
        text += "  " + ProgressText.size(downloadSpeed) + "  " + ProgressText.size(uploadSpeed)
        text += " " + ProgressText.duration(seconds: totalSeconds)
        text += " " + ProgressText.duration(seconds: spentSeconds)
        text += " " + ProgressText.duration(seconds: totalSeconds > 0 ? totalSeconds - spentSeconds : 0)
        text += " " + ProgressText.size(currentSpeed)
        return text
    }

    /// Bytes per second over `microseconds` (at least one).
    static func speed(_ bytes: Int, microseconds: Int64) -> Int {
        Int(Int64(bytes) * 1_000_000 / microseconds)
    }

    /// One direction's percentage done and whole seconds in all, both 0 unless its total is
    /// known and its speed above zero.
    static func estimate(total: Int?, done: Int, speed: Int) -> (percent: Int, seconds: Int) {
        guard let total, speed > 0 else { return (0, 0) }
        return (percent(done, of: total), total / speed)
    }

    /// `done` as a whole percentage of `total`, as curl divides (by total / 100 above 10,000,
    /// so the figure may pass 100 by a little); 0 for no total.
    static func percent(_ done: Int, of total: Int) -> Int {
        if total > 10_000 { return done / (total / 100) }
        return total > 0 ? done * 100 / total : 0
    }
}
