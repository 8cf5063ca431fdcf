// One `-w` variable's value, written the way curl writes its kind.

/// The value of one write-out variable (`%{http_code}`, `%{time_total}`...).
public enum WriteOutValue: Equatable, Sendable {
    /// A count or a code: `200`, `1024`.
    case integer(Int)
    /// A status code, written with three digits (`000` when no response came).
    case statusCode(Int)
    /// Seconds, written with six decimals (`0.001234`).
    case seconds(Double)
    /// Text; nil is written as nothing (and as `null` in `%{json}`).
    case text(String?)

    /// How `-w` writes it.
    public var formatted: String {
        switch self {
        case .integer(let value): String(value)
        case .statusCode(let code): String(repeating: "0", count: max(0, 3 - String(code).count)) + String(code)
        case .seconds(let seconds): Self.sixDecimals(seconds)
        case .text(let text): text ?? ""
        }
    }

    /// How `%{json}` writes it: numbers bare, text quoted and escaped, nil as `null`.
    public var json: String {
        switch self {
        case .integer(let value), .statusCode(let value): String(value)
        case .seconds(let seconds): Self.sixDecimals(seconds)
        case .text(nil): "null"
        case .text(let text?): Self.quoted(text)
        }
    }

    /// `seconds` rounded to the microsecond: `12.000345`.
    static func sixDecimals(_ seconds: Double) -> String {
        let micros = Int((max(0, seconds) * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `text` as a JSON string (`\u00XX` for control characters).
    static func quoted(_ text: String) -> String {
        QuotedText.quoted(text) { code in
            let hex = String(code, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
