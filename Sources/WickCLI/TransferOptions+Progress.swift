// Whether a transfer draws curl's progress meter or bar on standard error, by curl's rule.
import Glibc

extension TransferOptions {
    /// What a transfer draws on standard error: the bar with `-#`, else the meter; nothing with
    /// `-s` or `--no-progress-meter`, nor when the body goes to standard output and that is a
    /// terminal (where the meter would garble the body), as curl. With `-Z`, one meter for all
    /// transfers (`ParallelProgressMeter`) is drawn instead, by the same rule, or with `-#` on a
    /// terminal a bar per transfer (`ParallelProgressBars`).
    /// - Parameters:
    ///   - writesToFile: whether the body goes to a file (`-o`, `-O`; not `-o -`).
    ///   - standardOutputIsTerminal: whether standard output is a terminal.
    public func progressStyle(writesToFile: Bool, standardOutputIsTerminal: Bool) -> ProgressStyle? {
        guard !silent, drawsProgress, writesToFile || !standardOutputIsTerminal else { return nil }
        return drawsProgressBar ? .bar : .meter
    }

    /// Whether this process's standard output is a terminal.
    static var standardOutputIsTerminal: Bool {
        isatty(StandardStreams.output) == 1
    }

    /// Whether this process's standard error is a terminal (where `-Z -#` can move the cursor).
    static var standardErrorIsTerminal: Bool {
        isatty(StandardStreams.error) == 1
    }
}
