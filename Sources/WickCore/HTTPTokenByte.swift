// The tchar byte class (RFC 9110 §5.6.2), shared by the HTTP/1.1 codec and HTTP/2's field checks.

/// Whether `byte` is a tchar (RFC 9110 §5.6.2: `"!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" /
/// "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`), the bytes of methods and field
/// names. Two 64-bit masks, bit n set when byte n (or 64 + n) is a tchar: no table load, no
/// branch per class. `HeaderValidationTests` checks the masks against the ABNF's list.
@inlinable @inline(__always)
package func isHTTPTokenByte(_ byte: UInt8) -> Bool {
    asciiSet(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE, contains: byte)
}

/// Whether `byte` is a tchar other than an uppercase letter: a byte an HTTP/2 field name may
/// hold (RFC 9113 §8.2.1 wants names in lowercase). `isHTTPTokenByte`'s masks with the bits of
/// A-Z (65-90) cleared, so a received name is checked with one test per byte;
/// `HTTP2ConnectionTests` checks every byte value against `isHTTPTokenByte`.
@inlinable @inline(__always)
package func isLowercaseHTTPTokenByte(_ byte: UInt8) -> Bool {
    asciiSet(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C000_0000, contains: byte)
}

/// Whether the set of ASCII bytes given as two masks (bit n of `low`: byte n; of `high`: byte
/// 64 + n) holds `byte`; no byte from 128 up is in it.
@inlinable @inline(__always)
func asciiSet(low: UInt64, high: UInt64, contains byte: UInt8) -> Bool {
    guard byte < 128 else { return false }
    return ((byte < 64 ? low : high) >> UInt64(byte & 63)) & 1 == 1
}
