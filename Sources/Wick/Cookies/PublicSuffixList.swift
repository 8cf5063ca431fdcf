// The Public Suffix List's algorithm (https://publicsuffix.org/list/): which part of a domain
// name anyone may register under, so that a cookie can never be set for all of `co.uk`.

/// Looks names up in the Public Suffix List, generated into `rules` (PublicSuffixRules.swift) by
/// `Scripts/generate-public-suffixes`, so nothing is read from disk at run time.
///
/// The algorithm: every rule that matches the name's rightmost labels is a candidate (a `*`
/// label matches any one label); an exception rule (`!www.ck`) prevails over all others and
/// gives its own labels less the leftmost; otherwise the rule with the most labels prevails;
/// with no match, the rule `*` (the last label) applies. The public suffix is the part of the
/// name the prevailing rule matches. ICANN and private rules count alike.
///
/// The rules stay in their string literal; the first look-up copies its bytes once and notes
/// where each rule starts (about 150 KB in all), then every rule test is a binary search.
enum PublicSuffixList {
    /// The rules' bytes and the start of each rule (a rule ends where the next one's newline is).
    private static let table: (bytes: [UInt8], starts: [Int32]) = {
        let bytes = Array(rules.utf8)
        var starts: [Int32] = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(Int32(offset + 1)) }
        return (bytes, starts)
    }()

    /// Whether `domain` (lower case, ASCII) is itself a public suffix: `com`, `co.uk`, any
    /// name of one label, or `anything.ck` under the wildcard `*.ck` (but not `www.ck`).
    static func isPublicSuffix(_ domain: some StringProtocol) -> Bool {
        let domain = Substring(domain)
        return publicSuffix(of: domain) == domain
    }

    /// The public suffix of `domain` (lower case, ASCII, no trailing dot): `co.uk` for
    /// `www.example.co.uk`.
    static func publicSuffix(of domain: Substring) -> Substring {
        var starts = [domain.startIndex]
        for index in domain.indices where domain[index] == "." { starts.append(domain.index(after: index)) }
        var longest: Substring?
        for (label, start) in starts.enumerated() {
            let candidate = domain[start...]
            let parent = label + 1 < starts.count ? domain[starts[label + 1]...] : nil
            if contains(prefix: exceptionMark, candidate) { return parent ?? candidate }
            guard longest == nil else { continue }
            if contains(prefix: [], candidate) || parent.map({ contains(prefix: wildcardMark, $0) }) == true {
                longest = candidate
            }
        }
        return longest ?? domain[starts[starts.count - 1]...]
    }

    /// The registrable domain of `domain`: its public suffix and one label more
    /// (`example.co.uk` for `www.example.co.uk`); nil when `domain` is empty, starts with a
    /// dot, or is a public suffix itself.
    static func registrableDomain(of domain: some StringProtocol) -> Substring? {
        let domain = Substring(domain)
        guard let first = domain.first, first != "." else { return nil }
        let suffix = publicSuffix(of: domain)
        guard suffix.startIndex > domain.startIndex else { return nil }
        let beforeDot = domain[..<domain.index(before: suffix.startIndex)]
        let labelStart = beforeDot.lastIndex(of: ".").map(domain.index(after:)) ?? domain.startIndex
        return domain[labelStart...]
    }

    /// `!`, which opens an exception rule.
    private static let exceptionMark: [UInt8] = [UInt8(ascii: "!")]
    /// `*.`, which opens a wildcard rule.
    private static let wildcardMark: [UInt8] = [UInt8(ascii: "*"), UInt8(ascii: ".")]

    /// Whether the rule `prefix` + `name` is in the list (binary search over the sorted rules).
    private static func contains(prefix: [UInt8], _ name: Substring) -> Bool {
        let (bytes, starts) = table
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            let start = Int(starts[middle])
            let end = middle + 1 < starts.count ? Int(starts[middle + 1]) - 1 : bytes.count
            switch compare(bytes[start..<end], prefix, name.utf8) {
            case .equal: return true
            case .less: low = middle + 1
            case .greater: high = middle
            }
        }
        return false
    }

    /// How a rule's bytes order against `prefix` followed by `name`.
    private static func compare(_ rule: ArraySlice<UInt8>, _ prefix: [UInt8], _ name: Substring.UTF8View) -> Order {
        var index = rule.startIndex
        /// Compares one more byte; nil while they agree.
        func next(_ byte: UInt8) -> Order? {
            guard index < rule.endIndex else { return .less }
            if rule[index] != byte { return rule[index] < byte ? .less : .greater }
            index += 1
            return nil
        }
        for byte in prefix { if let order = next(byte) { return order } }
        for byte in name { if let order = next(byte) { return order } }
        return index == rule.endIndex ? .equal : .greater
    }

    /// The order of a rule against a key.
    private enum Order { case less, equal, greater }
}
