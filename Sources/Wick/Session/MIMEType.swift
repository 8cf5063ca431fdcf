// Media types (`type/subtype; name=value`) parsed and matched as Alamofire's validation does.
/// A media type from a `Content-Type` or `Accept` element (RFC 9110 §8.3.1): type and subtype
/// lowercased (they compare case-insensitively), and the parameters, names lowercased and
/// quoted values unquoted. Matching ignores the parameters.
struct MIMEType: Sendable {
    /// `text`, `application`, or `*`.
    let type: String
    /// `plain`, `json`, or `*`.
    let subtype: String
    /// The parameters in order, e.g. `[("charset", "utf-8")]`.
    let parameters: [(name: String, value: String)]

    /// Parses `type/subtype` followed by optional `; name=value` parameters; nil when there is
    /// no slash, or the type or subtype is empty or holds whitespace.
    init?(_ text: String) {
        var pieces = text.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let essence = pieces.next().map(Self.trimmed) else { return nil }
        let halves = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let type = halves.first, let subtype = halves.last,
            Self.isToken(type), Self.isToken(subtype)
        else { return nil }
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        var parameters: [(name: String, value: String)] = []
        while let piece = pieces.next() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = Self.trimmed(piece[..<equals]).lowercased()
            var value = Self.trimmed(piece[piece.index(after: equals)...])
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            if !name.isEmpty { parameters.append((name, String(value))) }
        }
        self.parameters = parameters
    }

    /// `*/*`.
    var isWildcard: Bool { type == "*" && subtype == "*" }

    /// The value of the first parameter called `name` (lowercase), if any.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// Whether this acceptable type admits `actual`: the same type and subtype, or `type/*`,
    /// `*/subtype`, or `*/*` (Alamofire's rule; parameters are ignored).
    func matches(_ actual: MIMEType) -> Bool {
        (type == "*" || type == actual.type) && (subtype == "*" || subtype == actual.subtype)
    }

    private static func trimmed(_ text: some StringProtocol) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let scalars = Substring(text)
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return scalars[first...last]
    }

    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && !text.contains { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\"" }
    }
}
