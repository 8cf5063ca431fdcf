// curl's `-K`/`--config` file syntax: one option per line, its value after whitespace, `=` or
// `:`, quoted when it holds whitespace; `#` comments; long names with or without `--`.

/// The lines of a config file as command-line words.
public enum ConfigFile {
    /// One option line: its words (`--name` and the value, if any) and its line number.
    public struct Line: Equatable, Sendable {
        /// The number of the line in the file, from 1.
        public let number: Int
        /// `["--header", "X-A: b"]`, `["-s"]`.
        public let words: [String]
    }

    /// The option lines of `text`, in order. A line is `NAME`, or `NAME` then blanks, `=` or `:`
    /// (one, with blanks around it) and a value: up to the next blank, or a `"`-quoted string
    /// in which `\\`, `\"`, `\t`, `\n`, `\r` and `\v` are escapes. A NAME without a leading `-`
    /// is a long option's (`url`, `header`). Blank lines and lines starting with `#` are skipped.
    public static func lines(of text: String) -> [Line] {
        var lines: [Line] = []
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var rest = raw.drop(while: isBlank)
            guard let first = rest.first, first != "#" else { continue }
            let name = rest.prefix { !isBlank($0) && $0 != "=" && $0 != ":" }
            rest = rest.dropFirst(name.count).drop(while: isBlank)
            if rest.first == "=" || rest.first == ":" { rest = rest.dropFirst().drop(while: isBlank) }
            var words = [name.hasPrefix("-") ? String(name) : "--" + name]
            if rest.first == "\"" {
                words.append(unquoted(rest.dropFirst()))
            } else if !rest.isEmpty {
                words.append(String(rest.prefix { !isBlank($0) }))
            }
            lines.append(Line(number: index + 1, words: words))
        }
        return lines
    }

    /// The text of a quoted value after its opening quote, up to the closing one, escapes undone.
    private static func unquoted(_ quoted: Substring) -> String {
        var value = ""
        var characters = quoted.makeIterator()
        while let character = characters.next(), character != "\"" {
            guard character == "\\", let escaped = characters.next() else {
                value.append(character)
                continue
            }
            switch escaped {
            case "t": value.append("\t")
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "v": value.append("\u{0B}")
            default: value.append(escaped)
            }
        }
        return value
    }
}
