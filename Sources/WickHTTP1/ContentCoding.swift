// Content codings (RFC 9110 §8.4.1) and the parsing of a Content-Encoding field into their list.

/// A content coding named in `Content-Encoding` (RFC 9110 §8.4.1).
///
/// Tokens compare case-insensitively; `x-gzip` is `gzip` (RFC 9110 §8.4.1.3). Codings Wick cannot
/// decode (`compress`, `dcb`, ...) are kept, lowercased, in `unsupported` so that a body carrying
/// one is passed through untouched.
public enum ContentCoding: Hashable, Sendable, CustomStringConvertible {
    /// No transformation.
    case identity
    /// gzip (RFC 1952), possibly several members back to back.
    case gzip
    /// "deflate": RFC 1950 zlib-wrapped by the standard, raw RFC 1951 from some servers; the
    /// decoder detects which from the first two bytes.
    case deflate
    /// "br": brotli (RFC 7932).
    case brotli
    /// "zstd": Zstandard (RFC 8878), with the window capped at 8 MiB as RFC 9659 §3 asks.
    case zstd
    /// Any other coding, lowercased: the body cannot be decoded.
    case unsupported(String)

    /// The coding a token names, case-insensitively.
    public init(token: some StringProtocol) {
        if token.equalsIgnoringASCIICase("gzip") || token.equalsIgnoringASCIICase("x-gzip") {
            self = .gzip
        } else if token.equalsIgnoringASCIICase("deflate") {
            self = .deflate
        } else if token.equalsIgnoringASCIICase("br") {
            self = .brotli
        } else if token.equalsIgnoringASCIICase("zstd") {
            self = .zstd
        } else if token.equalsIgnoringASCIICase("identity") {
            self = .identity
        } else {
            self = .unsupported(String(token).lowercased())
        }
    }

    /// The codings of every `Content-Encoding` field value, in the order they were applied
    /// (RFC 9110 §8.4: "listed in the order in which they were applied"). Several field lines
    /// concatenate as one list (RFC 9110 §5.3); empty list elements are skipped (§5.6.1).
    public static func list(fromFieldValues values: some Sequence<String>) -> [ContentCoding] {
        var codings: [ContentCoding] = []
        for value in values {
            for element in value.split(separator: ",", omittingEmptySubsequences: true) {
                let token = element.trimmingOWS()
                if !token.isEmpty { codings.append(ContentCoding(token: token)) }
            }
        }
        return codings
    }

    /// Every coding `ContentDecoder` decodes, in the order Wick prefers them.
    public static let decodable: [ContentCoding] = [.gzip, .deflate, .brotli, .zstd]

    /// The `Accept-Encoding` value that advertises exactly the decodable codings:
    /// `gzip, deflate, br, zstd`.
    public static let acceptEncodingValue = decodable.map(\.description).joined(separator: ", ")

    /// The coding's token: `gzip`, `deflate`, `br`, `zstd`, `identity`, or the unsupported token.
    public var description: String {
        switch self {
        case .identity: "identity"
        case .gzip: "gzip"
        case .deflate: "deflate"
        case .brotli: "br"
        case .zstd: "zstd"
        case .unsupported(let token): token
        }
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs (RFC 9110 §5.6.3 OWS).
    fileprivate func trimmingOWS() -> Substring {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isOWS($0) }), let last = lastIndex(where: { !isOWS($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
