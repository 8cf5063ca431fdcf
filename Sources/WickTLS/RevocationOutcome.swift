// What one revocation answer said, and the freshness rule every answer (OCSP or CRL) is judged by.
import FoundationEssentials

/// What one revocation source said about a certificate.
enum RevocationOutcome: Equatable {
    /// Not revoked; the answer is good until `nextUpdate` (nil: no stated end).
    case good(nextUpdate: Date?)
    /// Revoked, with the reason given.
    case revoked(reason: String, nextUpdate: Date?)
    /// No usable answer, and why.
    case unknown(String)
}

/// The thisUpdate...nextUpdate rule shared by OCSP responses (RFC 6960 §4.2.2.1) and CRLs
/// (RFC 5280 §5.1.2.4-5): an answer is used only inside its window, give or take `allowedClockSkew`.
enum RevocationWindow {
    /// Clock skew tolerated either side of an answer's thisUpdate...nextUpdate window.
    static let allowedClockSkew: Double = 300
    /// How long after its thisUpdate an OCSP response without nextUpdate is used. RFC 6960
    /// §4.2.2.1 says such a responder "is indicating that newer revocation information is
    /// available all the time" and leaves the rest to local policy; without a bound, one old
    /// "good" answer (a staple, say) would pass forever. Such answers are never cached.
    static let maximumAgeWithoutNextUpdate: Double = 86_400

    /// Why `now` lies outside thisUpdate...nextUpdate (widened by the skew), or nil when inside.
    /// A nil `nextUpdate` ends the window `maximumAgeWithoutNextUpdate` after thisUpdate.
    static func problem(thisUpdate: Date, nextUpdate: Date?, now: Date) -> String? {
        if thisUpdate.timeIntervalSince(now) > allowedClockSkew {
            return "its thisUpdate \(thisUpdate) is in the future at \(now)"
        }
        guard let nextUpdate else {
            guard now.timeIntervalSince(thisUpdate) > maximumAgeWithoutNextUpdate + allowedClockSkew else { return nil }
            return "it states no nextUpdate and its thisUpdate \(thisUpdate) is more than a day old at \(now)"
        }
        if now.timeIntervalSince(nextUpdate) > allowedClockSkew {
            return "it has expired: its nextUpdate was \(nextUpdate), it is now \(now)"
        }
        return nil
    }
}
