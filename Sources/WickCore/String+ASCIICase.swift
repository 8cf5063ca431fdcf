// Case-insensitive comparison of ASCII tokens (header names, codings) without allocating.

extension StringProtocol {
    /// Whether two strings are equal when ASCII letters are compared without case. Non-ASCII
    /// bytes must match exactly: header names are ASCII tokens, so no Unicode folding applies.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        // Lengths first (constant time for native strings): most names compared differ in length.
        guard utf8.count == other.utf8.count else { return false }
        var lhs = utf8.makeIterator()
        var rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil):
                return true
            case let (l?, r?):
                if l != r && l.asciiLowercased != r.asciiLowercased { return false }
            default:
                return false
            }
        }
    }
}

extension UInt8 {
    /// The byte with ASCII `A`–`Z` mapped to `a`–`z`; every other byte unchanged.
    @inlinable
    public var asciiLowercased: UInt8 {
        (self &- 0x41) < 26 ? self | 0x20 : self
    }
}

extension String {
    /// `lowercased()`, without its cost when there is nothing to lower: a string of ASCII bytes
    /// none of which is an uppercase letter (a host name as usually written) is returned as it is.
    @inlinable
    public func lowercasedIfNeeded() -> String {
        // Over the contiguous bytes (native strings are): a byte loop, not a UTF8View iterator.
        // SAFETY: `bytes` is the string's own UTF-8 storage, valid inside the closure; it is only
        // iterated by `contains`, which stays within its count, and nothing keeps it after the closure.
        let mayChange =
            utf8.withContiguousStorageIfAvailable { bytes in bytes.contains { ($0 &- 0x41) < 26 || $0 >= 0x80 } }
            ?? true
        return mayChange ? lowercased() : self
    }
}
