// One `-H` argument, as curl reads it: a field to send, a field to send empty, or one to remove.

/// What one `-H` line asks for.
public enum HeaderArgument: Equatable, Sendable {
    /// `Name: value`: send the field, in place of a field of that name `wick` would add.
    case set(name: String, value: String)
    /// `Name:`: send no field of that name, not even one `wick` would add (`User-Agent:`).
    case remove(name: String)

    /// The meaning of one line: `Name: value` (blanks after the colon skipped), `Name:`
    /// (remove), `Name;` (send empty). A line with neither `:` nor a trailing `;` is ignored,
    /// as curl ignores it: nil.
    public init?(line: String) {
        if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            self = value.isEmpty ? .remove(name: name) : .set(name: name, value: value)
        } else if line.hasSuffix(";") {
            self = .set(name: String(line.dropLast()), value: "")
        } else {
            return nil
        }
    }

    /// The headers a `-H` argument gives: its one line, or with `@file` (`@-`: standard input)
    /// every line of the file (CR and LF ends stripped, blank lines skipped).
    /// - Throws: `CommandFailure` (26, as curl) when the file cannot be read.
    public static func parse(_ argument: String, input: some ArgumentInput) throws(CommandFailure) -> [HeaderArgument] {
        guard argument.hasPrefix("@") else { return HeaderArgument(line: argument).map { [$0] } ?? [] }
        let path = String(argument.dropFirst())
        guard let bytes = input.contents(ofFile: path) else {
            throw CommandFailure(.readError, "Failed to open \(path)")
        }
        return String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .compactMap { HeaderArgument(line: String($0)) }
    }
}
