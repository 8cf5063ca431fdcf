// The incremental, sans-I/O HTTP/1.1 response parser: bytes in, response events out.
//
// Rules this state machine keeps (RFC 9112):
// - One exchange at a time: `expectResponse(to:)` starts it, `.end` (or `.switchingProtocols`,
//   or an error) finishes it. Interim 1xx responses (§15.2 of RFC 9110) come before the final one.
// - The head and trailers are copied into `storage` as they arrive: lines that arrive whole are
//   parsed in place and copied in one block, the others line by line. A byte is looked at a
//   bounded number of times (the in-place attempt, then one LF search and one validation when
//   that attempt hands its line over), so a head fed in k pieces costs O(bytes), never
//   O(k × bytes). Body bytes are never copied: `.body` is a range of the caller's buffer.
// - Framing follows §6.3 in its order (see +Framing). Errors carry the offset from the start of
//   the exchange; after an error the parser is dead until `reset()`.
// - "Need more data" is a normal step that consumes everything it was given.
//
// The byte-level code (the only unsafe code besides HTTPHeadStorage) is in +Scanning.

public import WickCore

/// Parses HTTP/1.1 responses incrementally, in place, without I/O.
///
/// The connection driver owns one parser per connection and reuses it for every response:
///
/// ```swift
/// parser.expectResponse(to: request.method)
/// // for every read into `buffer` (an UnsafeRawBufferPointer over the bytes read):
/// var used = 0
/// loop: while true {
///     let input = UnsafeRawBufferPointer(rebasing: buffer[used...])
///     let step = try parser.parse(input)
///     used += step.consumed
///     switch step.event {
///     case .needMoreData: break loop                      // it consumed all of input
///     case .body(let range): deliver(UnsafeRawBufferPointer(rebasing: input[range]))
///     case .end(let reusable): finish(reusable); break loop  // buffer[used...] is not ours
///     ...
///     }
/// }
/// // on EOF (read returned 0):
/// if let event = try parser.eofReceived() { ... }
/// ```
///
/// The parser is noncopyable: its head storage is reused across responses, and exactly one
/// owner may write it (it may move between threads with its owner; heads it handed out stay
/// readable anywhere). In the steady state (the caller drops each head before the next response
/// begins, or keeps it while its storage has room) parsing a head allocates nothing.
///
/// Decisions where RFC 9112 leaves room (strict unless a configuration flag says otherwise):
/// - `HTTP/1.1 200\r\n` (no SP, no reason) is accepted like `HTTP/1.1 200 \r\n`: it frames the
///   same and servers send it. `HTTP/1.x` with x > 1 is accepted as 1.x (§2.3); any other major
///   version, lowercase `http`, and status codes that are not three digits from 100 are errors.
/// - obs-fold is unfolded, each fold becoming spaces, as §5.2 requires of a user agent, in the
///   head and the trailers; `rejectObsoleteLineFolding` makes it an error instead. A line that
///   starts with whitespace before any field of its section is always an error (§2.2).
/// - An empty line before the status line is an error (§2.2 allows skipping it for requests only).
/// - Transfer codings other than a single `chunked` are errors: we never send `TE`, so a server
///   has no business applying one, and the close-delimited fallback of §6.3 rule 4 is a
///   desynchronisation risk. Transfer-Encoding together with Content-Length is an error for
///   every response that can have a body.
/// - A HEAD, 1xx, 204 or 304 response ends at its head (§6.3 rule 1): its framing fields never
///   decide its length. They are still validated, strictly: a malformed `Content-Length` or an
///   unsupported `Transfer-Encoding` there is an error, because a server that sends them is not
///   one whose later responses on this connection can be trusted.
/// - 101 and a 2xx answer to CONNECT stop the parser (`switchingProtocols`): Wick never
///   upgrades, and the connection is not reusable.
public struct HTTPResponseParser: ~Copyable, Sendable {
    enum State {
        /// No exchange in progress: before `expectResponse(to:)`, or after `.end`.
        case idle
        /// Reading the status line of a (possibly interim) response.
        case statusLine
        /// Reading the head's field lines.
        case headFields
        /// Reading a Content-Length body.
        case fixedBody(remaining: UInt64)
        /// Reading a chunk-size line.
        case chunkSize(ChunkSizeLine)
        /// Reading a chunk's data.
        case chunkData(remaining: UInt64)
        /// Expecting the CR after a chunk's data.
        case chunkDataCR
        /// Expecting the LF after a chunk's data.
        case chunkDataLF
        /// Reading the trailer section's field lines.
        case trailerFields
        /// Reading a body that ends when the connection closes.
        case untilClose
        /// The message is complete; the next call reports `.end`.
        case endPending(connectionReusable: Bool)
        /// 101 or a CONNECT tunnel: the parser has stopped for good.
        case switchedProtocols
        /// A parse error was thrown; only `reset()` leaves this state.
        case failed
    }

    /// Where a chunk-size line is (§7.1: chunk-size [ chunk-ext ] CRLF).
    struct ChunkSizeLine {
        enum Phase {
            case digits
            /// After the size: extensions, checked by their grammar (§7.1.1).
            case extensions(ChunkExtensionGrammar)
            case lineFeed
        }

        var phase = Phase.digits
        var value: UInt64 = 0
        var digits = 0
        var extensionBytes = 0
    }

    /// The limits and leniencies this parser applies.
    public let configuration: HTTPParserConfiguration

    var state = State.idle
    /// Head and trailer bytes and field ranges; see HTTPHeadStorage for who may write what.
    var storage: HTTPHeadStorage

    /// Whether the request was HEAD (§6.3 rule 1) or CONNECT (rule 2).
    var requestIsHead = false
    var requestIsConnect = false
    /// Bytes consumed in this exchange before the current `parse` call.
    var exchangeOffset = 0
    /// Storage index and exchange offset of the first byte of the section being read.
    var sectionStart = 0
    var sectionOffset = 0
    /// Storage field index of the section's first field.
    var sectionFieldStart = 0
    /// Storage index of the first byte of the line being read.
    var lineStart = 0
    /// The status line of the response being read.
    var version = HTTPVersion.http1_1
    var status = HTTPStatus.ok
    var reasonRange = 0..<0
    /// Decided when the final head completes.
    var connectionReusable = false

    /// Bytes the scanner has looked at (searched for LF, validated, or stepped over in a chunk
    /// line). Tests use it to prove that split input costs O(bytes).
    var examinedByteCount = 0

    /// A parser with `configuration`, idle until `expectResponse(to:)`. Allocates its head
    /// storage (`initialHeadCapacity` bytes) once.
    ///
    /// Precondition: every limit is positive (`maxChunkExtensionBytes` may be 0).
    public init(configuration: HTTPParserConfiguration = .strict) {
        precondition(
            configuration.maxStatusLineBytes > 0 && configuration.maxFieldLineBytes > 0
                && configuration.maxHeadBytes > 0 && configuration.maxFieldCount > 0
                && configuration.maxChunkSizeDigits > 0 && configuration.maxChunkExtensionBytes >= 0
                && configuration.maxTrailerBytes > 0 && configuration.initialHeadCapacity > 0,
            "HTTPParserConfiguration limits must be positive")
        self.configuration = configuration
        storage = HTTPHeadStorage(
            byteCapacity: min(configuration.initialHeadCapacity, Self.maxSectionBytes(configuration)),
            fieldCapacity: min(32, configuration.maxFieldCount)
        )
    }

    /// Starts an exchange: the next bytes are the response to a request with `method`.
    ///
    /// Call it once per request, before the first `parse`; a response to HEAD has no body.
    /// Precondition: the previous exchange ended with `.end` (or none was started).
    public mutating func expectResponse(to method: HTTPMethod) {
        guard case .idle = state else {
            preconditionFailure("expectResponse(to:) in state \(state): the previous response did not end")
        }
        // The lengths first: they rule out most methods without a string comparison.
        let length = method.rawValue.utf8.count
        requestIsHead = length == 4 && method == .head
        requestIsConnect = length == 7 && method == .connect
        exchangeOffset = 0
        beginSection(atOffset: 0)
        state = .statusLine
    }

    /// Forgets any exchange in progress (after an error, or to reuse the parser in a fuzz or
    /// benchmark loop). The storage is kept.
    public mutating func reset() {
        state = .idle
    }

    /// Parses the next bytes of the response and reports one event.
    ///
    /// Call it again with `bytes[step.consumed...]` until it returns `.needMoreData` (which
    /// consumes all of `bytes`); events with no input of their own (such as `.end` after a body
    /// of known length) need a call even with an empty buffer. `.body` ranges index `bytes`.
    ///
    /// - Throws: `HTTPParseError` when the bytes break RFC 9112 or a configured limit; the
    ///   parser then stays failed until `reset()`, and the connection must be closed.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPParseStep {
        do {
            let step = try step(bytes)
            exchangeOffset += step.consumed
            return step
        } catch {
            state = .failed
            throw error
        }
    }

    /// The body bytes the next input starts with, all of them body, or nil when the parser is
    /// not inside a body of known extent: the rest of a `Content-Length` body, or of the
    /// current chunk's data. The chunk's framing after it is not counted.
    public var bodyBytesExpected: UInt64? {
        switch state {
        case .fixedBody(let remaining), .chunkData(let remaining): remaining
        default: nil
        }
    }

    /// Reports that the server closed the connection (read returned 0).
    ///
    /// - Returns: `.end(connectionReusable: false)` when the close ends the body (a
    ///   close-delimited body, or a complete message whose `.end` was not yet reported), nil when
    ///   no exchange is in progress.
    /// - Throws: `HTTPParseError.Kind.unexpectedEOF` at the number of bytes received when the
    ///   response is incomplete (offset 0: the server sent nothing).
    public mutating func eofReceived() throws(HTTPParseError) -> HTTPParseEvent? {
        switch state {
        case .idle, .switchedProtocols:
            return nil
        case .untilClose, .endPending:
            state = .idle
            return .end(connectionReusable: false)
        case .statusLine, .headFields, .fixedBody, .chunkSize, .chunkData, .chunkDataCR, .chunkDataLF,
            .trailerFields:
            state = .failed
            throw HTTPParseError(.unexpectedEOF, at: exchangeOffset)
        case .failed:
            preconditionFailure("eofReceived() in state failed: the parser threw and was not reset")
        }
    }

    // MARK: Sections (the head or the trailers, held in storage)

    /// The most bytes one section can need.
    static func maxSectionBytes(_ configuration: HTTPParserConfiguration) -> Int {
        max(configuration.maxHeadBytes, configuration.maxTrailerBytes)
    }

    /// Starts a head or trailer section whose first byte is at `offset` in the exchange. Reuses
    /// the storage from its start when no head or field list refers to it any more.
    mutating func beginSection(atOffset offset: Int) {
        if isKnownUniquelyReferenced(&storage) {
            storage.count = 0
            storage.fieldCount = 0
        }
        sectionStart = storage.count
        sectionFieldStart = storage.fieldCount
        lineStart = storage.count
        sectionOffset = offset
    }

    /// The exchange offset of storage index `index` in the current section.
    func offset(ofStorageIndex index: Int) -> Int {
        sectionOffset + (index - sectionStart)
    }

    /// Makes room for `byteCount` more bytes and `fieldCount` more fields. Storage never grows in
    /// place (values may read it): a larger object receives the current section, and indices
    /// into the section are rebased to start at 0.
    @inline(__always)
    mutating func reserve(bytes byteCount: Int, fields fieldCount: Int) {
        if storage.count + byteCount > storage.byteCapacity || storage.fieldCount + fieldCount > storage.fieldCapacity {
            grow(bytes: byteCount, fields: fieldCount)
        }
    }

    /// `reserve`'s slow path: moves the section into a larger storage object.
    private mutating func grow(bytes byteCount: Int, fields fieldCount: Int) {
        let old = storage
        let neededBytes = old.count - sectionStart + byteCount
        let neededFields = old.fieldCount - sectionFieldStart + fieldCount
        let byteCapacity = max(neededBytes, min(2 * old.byteCapacity, Self.maxSectionBytes(configuration)))
        let fieldCapacity = max(neededFields, min(2 * old.fieldCapacity, configuration.maxFieldCount))
        let new = HTTPHeadStorage(byteCapacity: byteCapacity, fieldCapacity: fieldCapacity)
        new.append(bytesOf: old, in: sectionStart..<old.count)
        for index in sectionFieldStart..<old.fieldCount {
            var field = old.field(at: index)
            field.nameStart -= sectionStart
            field.nameEnd -= sectionStart
            field.valueStart -= sectionStart
            field.valueEnd -= sectionStart
            new.appendField(field)
        }
        if reasonRange.lowerBound >= sectionStart {
            reasonRange = reasonRange.lowerBound - sectionStart..<reasonRange.upperBound - sectionStart
        }
        lineStart -= sectionStart
        sectionStart = 0
        sectionFieldStart = 0
        storage = new
    }

    /// The fields of the current section.
    var sectionFields: HTTPFieldList {
        HTTPFieldList(storage: storage, fieldRange: sectionFieldStart..<storage.fieldCount)
    }
}
