// The response parser's limits and its opt-in leniencies, strict by default.

/// Limits and leniencies of `HTTPResponseParser`.
///
/// Every limit is inclusive: a value of exactly N is accepted and N + 1 is an error. Line limits
/// count the line terminator (CRLF, or LF when bare LF is allowed). The defaults suit a daemon
/// talking to servers it does not control: large enough for real-world cookies and security
/// policies, small enough that a hostile server cannot make a connection hold more than about
/// 80 KiB of head and trailer bytes.
///
/// Every leniency is off by default. Each one makes this client accept bytes that another
/// parser on the path (a proxy, a cache, a WAF) may read differently, which is how response
/// splitting and request smuggling start; turn one on only for a server you know needs it.
/// The one exception is obs-fold, which RFC 9112 §5.2 obliges a user agent to accept: unfolding
/// it is the default, and `rejectObsoleteLineFolding` is the opt-in strictness.
public struct HTTPParserConfiguration: Sendable, Hashable {
    /// Longest status line, CRLF included. Default 4 KiB (the reason phrase is the only
    /// variable part).
    public var maxStatusLineBytes: Int = 4096
    /// Longest field line (header or trailer), CRLF included. Default 16 KiB, for long
    /// `Set-Cookie` and `Content-Security-Policy` values.
    public var maxFieldLineBytes: Int = 16_384
    /// Largest head: status line, field lines and the empty line that ends them. Default 64 KiB.
    public var maxHeadBytes: Int = 65_536
    /// Most field lines in the head, and separately in the trailers. Default 256.
    public var maxFieldCount: Int = 256
    /// Most hex digits in one chunk size, leading zeros included. Default 16: every 64-bit size
    /// fits, so a longer size is `chunkSizeTooLong`; with a larger setting, a size past 64 bits
    /// is `chunkSizeOverflow`. Either way it is an error, never a wrapped value.
    public var maxChunkSizeDigits: Int = 16
    /// Most bytes of extensions on one chunk-size line (everything between the size and the
    /// line terminator). Extensions are checked against RFC 9112 §7.1.1's grammar and then
    /// ignored, never stored; past this many bytes the line is `chunkExtensionTooLong`, however
    /// well-formed. Default 4 KiB.
    public var maxChunkExtensionBytes: Int = 4096
    /// Largest trailer section, its empty last line included. Default 16 KiB.
    public var maxTrailerBytes: Int = 16_384
    /// Bytes of head storage allocated up front for each parser; it grows by doubling up to the
    /// limits above and keeps its size for the next response. Default 4 KiB.
    public var initialHeadCapacity: Int = 4096

    /// Reject obs-fold (a field line starting with SP or HTAB that continues the previous
    /// field's value, RFC 9112 §5.2) with `obsoleteLineFolding`, instead of unfolding it.
    ///
    /// Off by default, because §5.2 leaves a user agent no choice: "A user agent that receives
    /// an obs-fold in a response message ... MUST replace each received obs-fold with one or
    /// more SP octets prior to interpreting the field value." So by default each fold (the
    /// whitespace before the line break, the break, and the whitespace after it) becomes that
    /// many spaces, in the head and in the trailers alike, and the limits still count the raw
    /// bytes. The unfolded value is then read like any other: a folded `Content-Length` or
    /// `Transfer-Encoding` is judged as one value (`1 2` is an invalid length), so a fold cannot
    /// hide a framing field.
    ///
    /// Turn it on to refuse such responses outright, for example when this parser checks
    /// messages that another component will forward (obs-fold is deprecated since RFC 7230, and
    /// intermediaries disagree on it: some reject it, some unfold it, some read the continuation
    /// as a new field). A line that starts with SP or HTAB before any field of its section is an
    /// error in both modes (`whitespaceBeforeFirstField`).
    public var rejectObsoleteLineFolding: Bool = false

    /// Accept a bare LF as a line terminator in the head, in chunk-size lines, after chunk data
    /// and in trailers.
    ///
    /// Risk: a proxy that only splits on CRLF sees one line where this parser sees two, which
    /// lets a hostile origin hide a field (for example a second Content-Length) from one of them.
    public var allowBareLF: Bool = false

    /// Accept bytes that RFC 9110 §5.5 and §5.1 forbid: NUL, lone CR and other control bytes in
    /// field values and reason phrases, and non-token bytes in field names (SP and HTAB before
    /// the colon stay errors, as RFC 9112 §5.1 requires).
    ///
    /// Risk: a lone CR is a line break to some parsers, and NUL ends strings in C code that may
    /// later see the value, so such values can split responses or truncate checks downstream.
    public var allowInvalidFieldBytes: Bool = false

    /// The strict defaults.
    public init() {}

    /// The strict defaults: every limit at its default, every leniency off (obs-fold unfolded,
    /// as RFC 9112 §5.2 requires).
    public static var strict: HTTPParserConfiguration { HTTPParserConfiguration() }
}
