// curl's command-line grammar: long options, grouped short options, attached values, `--no-`.
//
// The rules, as curl 7.88's tool_getparam.c applies them:
//   1. `--NAME` names an option; its value, if it takes one, is the next word, never `--NAME=v`
//      (curl has no `=` form: `--data=x` is an unknown option).
//   2. `--no-NAME` turns the switch NAME off; a `--no-` before an option with a value is unknown.
//   3. `-abc` is `-a -b -c` while each letter is a switch. The first letter that takes a value
//      takes the rest of the word (`-XPOST`, `-sSo` then the next word), or, when nothing is
//      left, the next word (`-X POST`), whatever that word looks like (`-d -x` sends `-x`).
//   4. A lone `-` and every word not starting with `-` are URLs.

/// Splits a command line into options, switches and URLs by curl's grammar.
public enum ArgumentScanner {
    /// The scanned arguments, in order.
    /// - Throws: `CommandFailure` with exit code 2 (curl's `CURLE_FAILED_INIT`, as curl uses for a
    ///   bad command line) for an unknown option or a missing value.
    public static func scan(_ words: [String]) throws(CommandFailure) -> [ScannedArgument] {
        var scanned: [ScannedArgument] = []
        var index = 0
        /// The word after the one at `index`, consumed as `word`'s value.
        func value(for word: String) throws(CommandFailure) -> String {
            index += 1
            guard index < words.count else { throw .usage("option \(word): requires parameter") }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                if let option = CurlOption(longName: name) {
                    scanned.append(option.takesValue ? .option(option, try value(for: word)) : .toggle(option, true))
                } else if name.hasPrefix("no-"), let option = CurlOption(longName: String(name.dropFirst(3))),
                    !option.takesValue
                {
                    scanned.append(.toggle(option, false))
                } else {
                    throw .usage("option \(word): is unknown")
                }
            } else if word.hasPrefix("-") && word.count > 1 {
                var letters = word.dropFirst()
                while let letter = letters.popFirst() {
                    guard let option = CurlOption(shortName: letter) else { throw .usage("option \(word): is unknown") }
                    guard option.takesValue else {
                        scanned.append(.toggle(option, true))
                        continue
                    }
                    scanned.append(.option(option, letters.isEmpty ? try value(for: "-\(letter)") : String(letters)))
                    break
                }
            } else {
                scanned.append(.url(word))
            }
            index += 1
        }
        return scanned
    }
}
