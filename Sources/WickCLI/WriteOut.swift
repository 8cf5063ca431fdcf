// curl's `-w`/`--write-out` template: `%{variable}`, `%header{name}`, `%%`, and `\n`-style escapes.
public import Wick

/// A `-w` template applied to one finished transfer.
public struct WriteOut: Sendable {
    /// Where a piece of the output goes: `%{stdout}` and `%{stderr}` switch it.
    public enum Stream: Equatable, Sendable {
        /// Standard output (the start).
        case output
        /// Standard error.
        case error
    }

    /// The template, as given after `-w` (or read from `-w @file`).
    public let template: String

    /// A template.
    public init(_ template: String) { self.template = template }

    /// The output: pieces of text with the stream each goes to, in order, and a warning for
    /// each unknown variable (`unknown --write-out variable: 'foo'`), which writes nothing.
    /// - Parameter variables: the values by name (`http_code`, `time_total`...); `json` is
    ///   all of them as one JSON object, sorted by name.
    /// - Parameter headers: the last response's fields, for `%header{name}`.
    public func render(
        variables: [String: WriteOutValue], headers: HTTPHeaders?
    ) -> (pieces: [(stream: Stream, text: String)], warnings: [String]) {
        var pieces: [(stream: Stream, text: String)] = []
        var warnings: [String] = []
        var stream = Stream.output
        var text = ""
        func flush() {
            if !text.isEmpty { pieces.append((stream, text)) }
            text = ""
        }
        var rest = Substring(template)
        while let character = rest.popFirst() {
            switch character {
            case "\\":
                switch rest.first {
                case "n": text += "\n"
                case "r": text += "\r"
                case "t": text += "\t"
                case "\\": text += "\\"
                default:
                    text += "\\"
                    continue
                }
                rest.removeFirst()
            case "%":
                if rest.first == "%" {
                    rest.removeFirst()
                    text += "%"
                } else if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}") {
                    let name = String(rest[rest.index(after: rest.startIndex)..<close])
                    rest = rest[rest.index(after: close)...]
                    switch name {
                    case "stdout", "stderr":
                        flush()
                        stream = name == "stdout" ? .output : .error
                    case "json":
                        text += "{" + variables.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value.json)" }
                            .joined(separator: ",") + "}"
                    default:
                        if let value = variables[name] {
                            text += value.formatted
                        } else {
                            warnings.append("unknown --write-out variable: '\(name)'")
                        }
                    }
                } else if rest.hasPrefix("header{"), let close = rest.firstIndex(of: "}") {
                    let name = String(rest[rest.index(rest.startIndex, offsetBy: 7)..<close])
                    rest = rest[rest.index(after: close)...]
                    text += headers?.values(for: name).joined(separator: ", ") ?? ""
                } else {
                    text += "%"
                }
            default:
                text.append(character)
            }
        }
        flush()
        return (pieces, warnings)
    }
}
