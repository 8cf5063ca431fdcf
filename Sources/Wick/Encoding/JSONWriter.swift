// Writes `Any` values made of strings, numbers, bools, nil, arrays and dictionaries as JSON text.
import FoundationEssentials

/// The JSON writer behind `JSONEncoding` (FoundationEssentials has no `JSONSerialization`).
/// Output matches `JSONEncoder`'s: strings escape `"`, `\`, control characters (`\n`, `\t`...,
/// else `\u00XX`) and `/` (unless `.withoutEscapingSlashes`); other characters are raw UTF-8.
struct JSONWriter {
    let options: JSONEncoding.WritingOptions
    private(set) var bytes: [UInt8] = []

    init(options: JSONEncoding.WritingOptions) {
        self.options = options
    }

    /// Appends `value`; `path` names it in errors, `depth` sets the pretty-printed indentation.
    mutating func write(_ value: Any, path: String, depth: Int) throws(JSONEncoding.Error) {
        guard let value = unwrappedParameterValue(value) else { return append("null") }
        switch value {
        case let string as String:
            writeString(string)
        case let bool as Bool:
            append(bool ? "true" : "false")
        case let integer as any BinaryInteger:
            append("\(integer)")
        case let number as any BinaryFloatingPoint:
            guard number.isFinite else { throw .nonFiniteNumber(path: path) }
            let text = "\(number)"
            append(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
        case let decimal as Decimal:
            guard decimal.isFinite else { throw .nonFiniteNumber(path: path) }
            append(decimal.description)
        case let dictionary as [String: Any]:
            try writeObject(dictionary, path: path, depth: depth)
        case let array as [Any]:
            try writeArray(array, path: path, depth: depth)
        default:
            throw .unsupportedValue(path: path, type: "\(type(of: value))")
        }
    }

    private mutating func writeObject(_ dictionary: [String: Any], path: String, depth: Int) throws(JSONEncoding.Error)
    {
        let members = options.contains(.sortedKeys) ? dictionary.sorted { $0.key < $1.key } : Array(dictionary)
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(depth: depth + 1)
            writeString(member.key)
            append(options.contains(.prettyPrinted) ? " : " : ":")
            try write(member.value, path: "\(path).\(member.key)", depth: depth + 1)
        }
        if !members.isEmpty { newline(depth: depth) }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeArray(_ array: [Any], path: String, depth: Int) throws(JSONEncoding.Error) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in array.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(depth: depth + 1)
            try write(element, path: "\(path)[\(index)]", depth: depth + 1)
        }
        if !array.isEmpty { newline(depth: depth) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A line break and `depth` levels of two-space indentation, when pretty-printing.
    private mutating func newline(depth: Int) {
        guard options.contains(.prettyPrinted) else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "/") where !options.contains(.withoutEscapingSlashes): append("\\/")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
