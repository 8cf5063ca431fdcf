// The chunk-ext grammar of RFC 9112 §7.1.1, one byte at a time: the response parser checks a
// chunk-size line's extensions with it, then ignores them.

/// Where a chunk-size line's extensions are in their grammar, fed one byte at a time:
///
/// ```
/// chunk-ext      = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )   (RFC 9112 §7.1.1)
/// chunk-ext-name = token
/// chunk-ext-val  = token / quoted-string
/// quoted-string  = DQUOTE *( qdtext / quoted-pair ) DQUOTE                         (RFC 9110 §5.6.4)
/// qdtext         = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
/// quoted-pair    = "\" ( HTAB / SP / VCHAR / obs-text )
/// BWS            = *( SP / HTAB )
/// ```
///
/// It keeps only its position, never the names or values: Wick understands no extension, and
/// §7.1.1 says a recipient "MUST ignore unrecognized chunk extensions". Whitespace is allowed
/// only where BWS is, so whitespace before the line's CRLF (`5 \r\n`, `5;a \r\n`) is an error.
/// The caller bounds the bytes (`HTTPParserConfiguration.maxChunkExtensionBytes`).
struct ChunkExtensionGrammar {
    /// The position after the bytes accepted so far.
    enum Position {
        /// After the chunk size or a complete extension: `;`, BWS, or the line's end.
        case afterElement
        /// In BWS that must lead to `;`.
        case spaceBeforeSemicolon
        /// After `;`, in BWS before the name.
        case beforeName
        /// In the name: more tchars, `=`, `;`, BWS, or the line's end.
        case name
        /// In BWS after the name: `=` or `;`.
        case spaceAfterName
        /// After `=`, in BWS before the value.
        case beforeValue
        /// In a token value: more tchars, `;`, BWS, or the line's end.
        case tokenValue
        /// Inside a quoted-string.
        case quoted
        /// After the backslash of a quoted-pair.
        case quotedPair
    }

    /// Where the grammar is; a new grammar is right after the chunk size.
    private(set) var position = Position.afterElement

    /// Whether the line may end here (the next byte is CR, or LF where bare LF is allowed).
    var canEnd: Bool {
        switch position {
        case .afterElement, .name, .tokenValue: true
        case .spaceBeforeSemicolon, .beforeName, .spaceAfterName, .beforeValue, .quoted, .quotedPair: false
        }
    }

    /// Takes the next byte of the extensions (never the line's CR or LF). Returns false, leaving
    /// the position unchanged, when the grammar allows no such byte here.
    mutating func accept(_ byte: UInt8) -> Bool {
        let isSpace = byte == 0x20 || byte == 0x09
        let next: Position? =
            switch position {
            case .afterElement:
                byte == 0x3B ? .beforeName : isSpace ? .spaceBeforeSemicolon : nil
            case .spaceBeforeSemicolon:
                byte == 0x3B ? .beforeName : isSpace ? .spaceBeforeSemicolon : nil
            case .beforeName:
                isTokenByte(byte) ? .name : isSpace ? .beforeName : nil
            case .name:
                isTokenByte(byte)
                    ? .name : byte == 0x3D ? .beforeValue : byte == 0x3B ? .beforeName : isSpace ? .spaceAfterName : nil
            case .spaceAfterName:
                byte == 0x3D ? .beforeValue : byte == 0x3B ? .beforeName : isSpace ? .spaceAfterName : nil
            case .beforeValue:
                isTokenByte(byte) ? .tokenValue : byte == 0x22 ? .quoted : isSpace ? .beforeValue : nil
            case .tokenValue:
                isTokenByte(byte) ? .tokenValue : byte == 0x3B ? .beforeName : isSpace ? .spaceBeforeSemicolon : nil
            case .quoted:
                switch byte {
                case 0x22: .afterElement
                case 0x5C: .quotedPair
                case 0x09, 0x20, 0x21, 0x23...0x5B, 0x5D...0x7E, 0x80...0xFF: .quoted
                default: nil
                }
            case .quotedPair:
                byte == 0x09 || (byte >= 0x20 && byte != 0x7F) ? .quoted : nil
            }
        guard let next else { return false }
        position = next
        return true
    }
}
