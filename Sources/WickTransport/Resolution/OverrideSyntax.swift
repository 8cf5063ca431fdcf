// The pieces curl's `--resolve` and `--connect-to` entries are made of: colon-separated fields in
// which an IPv6 literal is bracketed, ports, hosts and IP addresses, each checked.
import WickReactor

/// Splitting and checking the fields of an override entry.
enum OverrideSyntax {
    /// `entry` split at every `:` outside brackets: `[::1]:443:a` is `[::1]`, `443`, `a`.
    static func fields(of entry: Substring) -> [Substring] {
        var fields: [Substring] = []
        var start = entry.startIndex
        var depth = 0
        for index in entry.indices {
            switch entry[index] {
            case "[": depth += 1
            case "]": depth = max(0, depth - 1)
            case ":" where depth == 0:
                fields.append(entry[start..<index])
                start = entry.index(after: index)
            default: break
            }
        }
        fields.append(entry[start...])
        return fields
    }

    /// `host` without the brackets of an IPv6 literal.
    static func unbracketed(_ host: Substring) -> Substring {
        host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 ? host.dropFirst().dropLast() : host
    }

    /// A port in 1...65535.
    /// - Throws: `.invalidPort` naming `entry`.
    static func port(_ text: Substring, entry: String) throws(NameResolutionOverrideError) -> Int {
        guard text.utf8.count <= 5, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let port = Int(text),
            (1...65_535).contains(port)
        else { throw .invalidPort(entry: entry, port: String(text)) }
        return port
    }

    /// A host name or IP literal, lowercased and unbracketed: not empty, no space, control byte or
    /// `/`, and a `:` only in an IPv6 literal.
    /// - Throws: `.invalidHost` naming `entry`.
    static func host(_ text: Substring, entry: String) throws(NameResolutionOverrideError) -> String {
        let bare = unbracketed(text)
        let isIPv6 = SocketAddress(numericHost: String(bare), port: 1)?.isIPv6 == true
        guard !bare.isEmpty, bare.utf8.count <= 253 || isIPv6,
            bare.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") }),
            isIPv6 || !bare.contains(":")
        else { throw .invalidHost(entry: entry, host: String(text)) }
        return bare.lowercased()
    }

    /// An IPv4 or IPv6 literal (IPv6 bracketed or not), unbracketed.
    /// - Throws: `.invalidAddress` naming `entry`.
    static func address(_ text: Substring, entry: String) throws(NameResolutionOverrideError) -> String {
        let bare = String(unbracketed(text))
        guard SocketAddress(numericHost: bare, port: 1) != nil else {
            throw .invalidAddress(entry: entry, address: String(text))
        }
        return bare
    }
}
