// The bytes one `-d`, `--data-binary`, `--data-raw`, `--data-urlencode` or `--json` argument
// adds to the request body, by curl's rules for each.

/// How one data argument turns into body bytes.
public enum PostData {
    /// The piece of body `argument` gives under `option` (one of the data options):
    /// - `--data`, `--data-ascii`: the text, or with `@file` (`@-`: standard input) the file
    ///   with every CR and LF removed; an unreadable file gives nothing (curl warns and goes on).
    /// - `--data-binary`, `--json`: the same, the file as it is.
    /// - `--data-raw`: the text, `@` included.
    /// - `--data-urlencode`: `content`, `=content`, `name=content`, `@file` or `name@file`, the
    ///   content (or file) form-encoded (`formEncoded`), `name=` kept as given.
    /// - Parameter warn: told when a file cannot be read.
    public static func piece(
        of option: CurlOption, _ argument: String, input: some ArgumentInput, warn: (String) -> Void
    ) -> [UInt8] {
        func file(_ path: String) -> [UInt8] {
            guard let bytes = input.contents(ofFile: path) else {
                warn("Couldn't read data from file \"\(path)\", this makes an empty POST.")
                return []
            }
            return bytes
        }
        switch option {
        case .dataURLEncode:
            guard let separator = argument.firstIndex(where: { $0 == "=" || $0 == "@" }) else {
                return formEncoded(Array(argument.utf8))
            }
            let name = String(argument[..<separator])
            let rest = String(argument[argument.index(after: separator)...])
            let content = argument[separator] == "@" ? file(rest) : Array(rest.utf8)
            return (name.isEmpty ? [] : Array((name + "=").utf8)) + formEncoded(content)
        case .dataRaw:
            return Array(argument.utf8)
        case .dataBinary, .json:
            return argument.hasPrefix("@") ? file(String(argument.dropFirst())) : Array(argument.utf8)
        default:
            guard argument.hasPrefix("@") else { return Array(argument.utf8) }
            return file(String(argument.dropFirst())).filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        }
    }

    /// `bytes` as curl's `--data-urlencode` writes them: a space as `+`, RFC 3986's unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`) as they are, every other byte as `%XX`.
    public static func formEncoded(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(byte)
            case UInt8(ascii: " "):
                encoded.append(UInt8(ascii: "+"))
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return encoded
    }
}
