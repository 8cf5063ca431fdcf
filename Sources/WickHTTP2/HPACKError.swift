// Why a header block could not be decoded (or a field list encoded), and where.

/// A header block the HPACK decoder rejected (RFC 7541), or a limit it enforced.
///
/// Every kind but `headerListTooLarge` leaves the decoder's dynamic table out of step with the
/// server's encoder, so the connection must end with `COMPRESSION_ERROR` (RFC 9113 §4.3).
/// `headerListTooLarge` is reported only after the whole block was decoded (fields past the limit
/// are counted and dropped, never stored), so the table stays in step and only the stream fails.
public struct HPACKError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What rule the block broke.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The block ends inside a representation (an integer, a string, or between a name and
        /// its value).
        case truncatedBlock
        /// An integer (RFC 7541 §5.1) does not fit in 32 bits, or has more continuation bytes
        /// than any 32-bit value needs.
        case integerOverflow
        /// Index 0, or an index past the static and dynamic tables (§2.3.3).
        case invalidIndex
        /// A Huffman-coded string holds the EOS symbol (§5.2).
        case huffmanEndOfString
        /// A Huffman-coded string ends in more than 7 bits of padding, or in padding that is not
        /// the most significant bits of EOS (all 1 bits) (§5.2).
        case invalidHuffmanPadding
        /// A dynamic table size update asks for more than the size this client advertised in
        /// SETTINGS_HEADER_TABLE_SIZE (§6.3).
        case tableSizeUpdateTooLarge
        /// A dynamic table size update follows a field representation in the same block (§4.2).
        case tableSizeUpdateNotAtStart
        /// After this client lowered its table size, the next block did not start with a size
        /// update that honours it (§4.2).
        case missingTableSizeUpdate
        /// The decoded header list (names, values and 32 bytes per field, RFC 7541 §4.1) is
        /// larger than `maxHeaderListSize`: the HPACK bomb.
        case headerListTooLarge
    }

    /// What rule the block broke.
    public let kind: Kind
    /// Bytes from the start of the block to the byte where the error became certain.
    public let offset: Int

    /// An error of a kind at an offset in the block.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// `kind at offset`.
    public var description: String { "\(kind.rawValue) at \(offset)" }
}
