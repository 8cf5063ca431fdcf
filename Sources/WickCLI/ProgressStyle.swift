// The two forms of curl's progress display.

/// How a transfer's progress is drawn on standard error.
public enum ProgressStyle: Equatable, Sendable {
    /// curl's default meter (`ProgressMeter`).
    case meter
    /// `-#`: the bar (`ProgressBar`).
    case bar
}
