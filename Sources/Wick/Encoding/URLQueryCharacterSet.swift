// The ASCII characters a URL-encoded form leaves unescaped, and the percent-escaping that uses them.

/// A set of ASCII characters left as they are when a form key or value is percent-escaped; every
/// other byte of the UTF-8 form is written `%XX` (two upper-case hex digits).
///
/// Wick's stand-in for Alamofire's `CharacterSet.afURLQueryAllowed` (FoundationEssentials has no
/// `CharacterSet`). Only characters RFC 3986 allows in a query (`urlQueryAllowed`) can be in the
/// set, so an escaped string is always a valid query and can be placed in a URL as it is.
public struct URLQueryCharacterSet: Sendable, Hashable {
    /// Bit `n` set: ASCII byte `n` (0-63) is allowed.
    private var low: UInt64
    /// Bit `n` set: ASCII byte `64 + n` is allowed.
    private var high: UInt64

    /// Every character RFC 3986 §3.4 allows in a query without escaping: unreserved
    /// (`A-Z a-z 0-9 - . _ ~`), sub-delims (`! $ & ' ( ) * + , ; =`), `:`, `@`, `/` and `?`.
    public static let urlQueryAllowed = URLQueryCharacterSet(
        bits: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?")

    /// What Alamofire escapes by: `urlQueryAllowed` less the general delimiters `: # [ ] @` and the
    /// sub-delims `! $ & ' ( ) * + , ; =`, so that a key or value cannot end a pair, start a
    /// fragment or be read as a nested key. `?` and `/` stay unescaped (RFC 3986 §3.4 allows them
    /// in a query). The default of `URLEncodedFormEncoder` and `URLEncoding`.
    public static let afURLQueryAllowed = URLQueryCharacterSet(
        bits: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?")

    /// The set holding the characters of `string`.
    /// - Precondition: every character of `string` is in `urlQueryAllowed` (a character a query
    ///   cannot hold unescaped is a programming error, caught here rather than in a URL).
    public init(charactersIn string: String) {
        self.init(bits: "")
        insert(charactersIn: string)
    }

    private init(bits string: String) {
        low = 0
        high = 0
        for byte in string.utf8 { setBit(byte) }
    }

    /// Adds the characters of `string`.
    /// - Precondition: every character of `string` is in `urlQueryAllowed`.
    public mutating func insert(charactersIn string: String) {
        for scalar in string.unicodeScalars {
            precondition(
                Self.urlQueryAllowed.contains(scalar),
                "URLQueryCharacterSet: \(scalar.escaped(asASCII: true)) cannot appear unescaped in a URL query")
            setBit(UInt8(scalar.value))
        }
    }

    /// Removes the characters of `string` (characters not in the set are ignored).
    public mutating func remove(charactersIn string: String) {
        for scalar in string.unicodeScalars where scalar.isASCII {
            let byte = UInt8(scalar.value)
            if byte < 64 { low &= ~(1 << UInt64(byte)) } else { high &= ~(1 << UInt64(byte - 64)) }
        }
    }

    /// Whether `scalar` is left unescaped.
    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && contains(byte: UInt8(scalar.value))
    }

    private func contains(byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }

    private mutating func setBit(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    /// `string` percent-escaped: bytes in the set kept, a space written as `space`, every other
    /// UTF-8 byte as `%XX`.
    func escape(_ string: String, space: String = "%20") -> String {
        var output = ""
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if contains(byte: byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: " ") {
                output += space
            } else {
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(Self.hexDigits[Int(byte >> 4)])
                output.unicodeScalars.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        return output
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)
}
