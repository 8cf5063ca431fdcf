// The Strict-Transport-Security field (RFC 6797 §6.1), parsed by its grammar.

/// A `Strict-Transport-Security` field's policy (RFC 6797 §6.1): how long the host is a known
/// HSTS host and whether its subdomains are too.
///
///     Strict-Transport-Security = "Strict-Transport-Security" ":" [ directive ] *( ";" [ directive ] )
///     directive = directive-name [ "=" directive-value ]
///     directive-value = token | quoted-string
///
/// Directive names are case-insensitive (§6.1 rule 2); unknown directives are ignored (rule 3);
/// a field with no valid `max-age` or with any directive twice is invalid (rules 1 and 2, §6.1.1)
/// and the whole field is ignored (§8.1).
public struct StrictTransportSecurity: Sendable, Equatable {
    /// `max-age` in seconds (§6.1.1): 0 asks the client to forget the host (§6.1.1, §8.1.1).
    public var maxAge: Int
    /// `includeSubDomains` (§6.1.2): the policy covers every subdomain too.
    public var includesSubdomains: Bool

    /// A policy.
    public init(maxAge: Int, includesSubdomains: Bool) {
        self.maxAge = maxAge
        self.includesSubdomains = includesSubdomains
    }

    /// The most bytes of a field read: 1024 (a real one is under 100).
    public static let maximumFieldBytes = 1024

    /// The policy in `fieldValue`, or nil when the field is invalid (see the type's rules) or
    /// longer than `maximumFieldBytes`.
    public init?(_ fieldValue: String) {
        guard fieldValue.utf8.count <= Self.maximumFieldBytes else { return nil }
        var maxAge: Int?
        var includesSubdomains = false
        var seen: Set<String> = []
        for rawDirective in fieldValue.split(separator: ";", omittingEmptySubsequences: false) {
            let directive = rawDirective.drop { $0 == " " || $0 == "\t" }
            guard !directive.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].filter { $0 != " " && $0 != "\t" }.lowercased()
            guard seen.insert(name).inserted else { return nil }
            var value = parts.count > 1 ? Substring(parts[1].filter { $0 != " " && $0 != "\t" }) : nil
            if let quoted = value, quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" {
                value = quoted.dropFirst().dropLast()
            }
            switch name {
            case "max-age":
                guard let digits = value, let seconds = CacheControl.deltaSeconds(Array(digits.utf8)) else { return nil }
                maxAge = seconds
            case "includesubdomains":
                guard value == nil else { return nil }
                includesSubdomains = true
            default:
                continue
            }
        }
        guard let maxAge else { return nil }
        self.init(maxAge: maxAge, includesSubdomains: includesSubdomains)
    }
}
