// curl's fixed-width pieces of the progress meter: a byte count in at most five columns (k, M,
// G, T, P in powers of 1024, truncated), and a duration in eight (`HH:MM:SS`, `DDDd HHh`, `--:--:--`).

/// The columns of curl's progress meter, formatted as curl 7.88's lib/progress.c does.
public enum ProgressText {
    /// `bytes` in five columns, right-aligned: as it is below 100,000; then whole KiB (`4882k`)
    /// below 10,000 KiB; `XX.XM` below 100 MiB (the tenth truncated, not rounded); whole MiB
    /// below 10,000 MiB; `XX.XG` below 100 GiB; then whole GiB, TiB and PiB. Cut at five
    /// columns as curl's six-byte buffer cuts it (`99.10M`, a tenth of 10 by integer division,
    /// is `99.10`).
    public static func size(_ bytes: Int) -> String {
        String(unboundedSize(bytes).prefix(5))
    }

    /// `size` before the cut.
    private static func unboundedSize(_ bytes: Int) -> String {
        let kibibyte = 1024
        let mebibyte = 1024 * kibibyte
        let gibibyte = 1024 * mebibyte
        let tebibyte = 1024 * gibibyte
        if bytes < 100_000 { return padded(String(bytes), to: 5) }
        if bytes < 10_000 * kibibyte { return padded(String(bytes / kibibyte), to: 4) + "k" }
        if bytes < 100 * mebibyte { return tenths(bytes, unit: mebibyte) + "M" }
        if bytes < 10_000 * mebibyte { return padded(String(bytes / mebibyte), to: 4) + "M" }
        if bytes < 100 * gibibyte { return tenths(bytes, unit: gibibyte) + "G" }
        if bytes < 10_000 * gibibyte { return padded(String(bytes / gibibyte), to: 4) + "G" }
        if bytes < 10_000 * tebibyte { return padded(String(bytes / tebibyte), to: 4) + "T" }
        return padded(String(bytes / (1024 * tebibyte)), to: 4) + "P"
    }

    /// `seconds` in eight columns: `--:--:--` for zero or less, ` H:MM:SS` up to 99 hours,
    /// then `DDDd HHh` up to 999 days, then `DDDDDDDd`.
    public static func duration(seconds: Int) -> String {
        guard seconds > 0 else { return "--:--:--" }
        let hours = seconds / 3600
        if hours <= 99 {
            let minutes = (seconds % 3600) / 60
            return padded(String(hours), to: 2) + ":" + twoDigits(minutes) + ":" + twoDigits(seconds % 60)
        }
        let days = seconds / 86_400
        if days <= 999 { return padded(String(days), to: 3) + "d " + twoDigits((seconds % 86_400) / 3600) + "h" }
        return padded(String(days), to: 7) + "d"
    }

    /// A percentage in three columns, right-aligned.
    public static func percent(_ value: Int) -> String {
        padded(String(value), to: 3)
    }

    /// `XX.X` of `unit`: the whole units in two columns, then the tenth, truncated.
    private static func tenths(_ bytes: Int, unit: Int) -> String {
        padded(String(bytes / unit), to: 2) + "." + String((bytes % unit) / (unit / 10))
    }

    /// `text` right-aligned in `width` columns (longer text is left as it is).
    static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `value` with a leading zero below 10.
    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
