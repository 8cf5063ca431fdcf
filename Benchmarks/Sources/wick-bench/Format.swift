// Number formatting for the result tables.
import Foundation

/// Formats figures for the tables.
enum Format {
    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// A speed ratio such as `0.74×`.
    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    /// An integer with thousands separators.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}
