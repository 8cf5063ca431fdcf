// The Authorization field answering a Digest challenge (RFC 7616), with the legacy RFC 2069 form.
import WickCore
import WickTLS

/// Answers one `Digest` challenge (RFC 7616 §3.4):
/// ```
/// A1       = username ":" realm ":" passwd                    (algorithm without -sess)
/// A1       = H(username ":" realm ":" passwd) ":" nonce ":" cnonce   (-sess)
/// A2       = Method ":" request-uri                           (qop=auth, or no qop)
/// response = KD(H(A1), nonce ":" nc ":" cnonce ":" qop ":" H(A2))   (qop=auth)
/// response = KD(H(A1), nonce ":" H(A2))                        (no qop: RFC 2069)
/// KD(secret, data) = H(secret ":" data)
/// ```
/// Every hash is lowercase hex over UTF-8 bytes. Only `qop=auth` is answered: `auth-int`
/// hashes the body, which a retry of an adapted request cannot promise to match, so a
/// challenge that offers only `auth-int` is not answered. A `-sess` algorithm without a qop is
/// not answered either (its cnonce may only be sent with a qop, RFC 2617 §3.2.2).
struct DigestAuthorization {
    /// The `algorithm` values Wick answers (RFC 7616 §3.3; a missing one means MD5).
    enum Algorithm: String, CaseIterable {
        case md5 = "MD5"
        case md5Session = "MD5-sess"
        case sha256 = "SHA-256"
        case sha256Session = "SHA-256-sess"

        /// The algorithm a challenge's `algorithm` parameter names (any case), or nil when Wick
        /// does not speak it (SHA-512-256, or a token of the server's own).
        init?(parameter: String?) {
            guard let parameter else {
                self = .md5
                return
            }
            guard let known = Self.allCases.first(where: { $0.rawValue.equalsIgnoringASCIICase(parameter) }) else {
                return nil
            }
            self = known
        }

        /// The hash under it.
        var digest: MessageDigest {
            switch self {
            case .md5, .md5Session: .md5
            case .sha256, .sha256Session: .sha256
            }
        }

        /// Whether A1 is the session form.
        var isSession: Bool { self == .md5Session || self == .sha256Session }

        /// Higher is stronger: SHA-256 beats MD5 (RFC 7616 §3.7: use the strongest offered).
        var strength: Int {
            switch self {
            case .md5, .md5Session: 0
            case .sha256, .sha256Session: 1
            }
        }
    }

    /// The challenge's values Wick needs, checked.
    let realm: String
    let nonce: String
    let opaque: String?
    let algorithm: Algorithm
    /// `auth`, or nil for the RFC 2069 form.
    let qop: String?
    let userhash: Bool

    /// The answerable form of `challenge`, or nil when it is not a Digest challenge Wick can
    /// answer (no realm or nonce, an unknown algorithm, only `auth-int`, `-sess` without qop).
    init?(_ challenge: HTTPAuthenticationChallenge) {
        guard challenge.isScheme("Digest"), challenge.token68 == nil,
            let realm = challenge.parameter("realm"), let nonce = challenge.parameter("nonce"),
            let algorithm = Algorithm(parameter: challenge.parameter("algorithm"))
        else { return nil }
        var qop: String?
        if let offered = challenge.parameter("qop") {
            let options = offered.split(separator: ",").map { $0.trimmingASCIIWhitespace() }
            guard options.contains(where: { $0.equalsIgnoringASCIICase("auth") }) else { return nil }
            qop = "auth"
        }
        if algorithm.isSession, qop == nil { return nil }
        self.realm = realm
        self.nonce = nonce
        self.opaque = challenge.parameter("opaque")
        self.algorithm = algorithm
        self.qop = qop
        self.userhash = challenge.parameter("userhash")?.equalsIgnoringASCIICase("true") ?? false
    }

    /// The `Authorization` field value for `method` on `uri` (the request-target as sent).
    /// - Parameter cnonce: the client nonce; random in use, fixed by tests.
    func fieldValue(method: String, uri: String, credential: HTTPCredential, cnonce: String) -> String {
        let digest = algorithm.digest
        let nonceCount = "00000001"
        var secret = digest.hexHash("\(credential.user):\(realm):\(credential.password)")
        if algorithm.isSession { secret = digest.hexHash("\(secret):\(nonce):\(cnonce)") }
        let requestHash = digest.hexHash("\(method):\(uri)")
        let response =
            if let qop {
                digest.hexHash("\(secret):\(nonce):\(nonceCount):\(cnonce):\(qop):\(requestHash)")
            } else {
                digest.hexHash("\(secret):\(nonce):\(requestHash)")
            }
        var parts: [String] = []
        if userhash {
            parts.append("username=\(Self.quoted(digest.hexHash("\(credential.user):\(realm)")))")
        } else if credential.user.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            parts.append("username=\(Self.quoted(credential.user))")
        } else {
            // RFC 7616 §3.4.4: a name quoted-string cannot carry goes as an RFC 8187 ext-value.
            parts.append("username*=UTF-8''\(Self.percentEncoded(credential.user))")
        }
        parts.append("realm=\(Self.quoted(realm))")
        parts.append("uri=\(Self.quoted(uri))")
        parts.append("algorithm=\(algorithm.rawValue)")
        parts.append("nonce=\(Self.quoted(nonce))")
        if let qop {
            parts.append("nc=\(nonceCount)")
            parts.append("cnonce=\(Self.quoted(cnonce))")
            parts.append("qop=\(qop)")
        }
        parts.append("response=\(Self.quoted(response))")
        if let opaque { parts.append("opaque=\(Self.quoted(opaque))") }
        if userhash { parts.append("userhash=true") }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// A random client nonce: 16 bytes from the system generator, as 32 hex digits.
    static func randomClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return MessageDigest.hex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// `value` as a quoted-string, `"` and `\` escaped.
    static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value {
            if character == "\"" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "\""
    }

    /// RFC 8187's value-chars: attr-char kept, every other byte `%XX`.
    private static func percentEncoded(_ value: String) -> String {
        let kept = Set("!#$&+-.^_`|~".utf8)
        var text = ""
        for byte in value.utf8 {
            let isAlphanumeric =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if isAlphanumeric || kept.contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "%" + MessageDigest.hex([byte]).uppercased()
            }
        }
        return text
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
