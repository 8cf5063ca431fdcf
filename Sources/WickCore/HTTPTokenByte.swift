// The tchar byte class (RFC 9110 §5.6.2), shared by the HTTP/1.1 codec and HTTP/2's field checks.

/// Whether `byte` is a tchar (RFC 9110 §5.6.2: `"!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" /
/// "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`), the bytes of methods and field
/// names. Two 64-bit masks, bit n set when byte n (or 64 + n) is a tchar: no table load, no
/// branch per class. `HeaderValidationTests` checks the masks against the ABNF's list.
@inlinable @inline(__always)
package func isHTTPTokenByte(_ byte: UInt8) -> Bool {
    let low: UInt64 = 0x03FF_6CFA_0000_0000
    let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
    guard byte < 128 else { return false }
    return ((byte < 64 ? low : high) >> UInt64(byte & 63)) & 1 == 1
}
