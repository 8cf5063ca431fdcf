// The cookies one host's requests may send, rendered once: a request's Cookie field is then a
// path filter and one copy per cookie, not a walk of the store.
import FoundationEssentials

/// The cookies that requests to one host over one security (http or https) may send, in
/// RFC 6265bis §5.8.3's order, with each one's path and `name=value` pair rendered back to back
/// into one byte buffer.
///
/// Which cookies these are does not depend on the request's path, nor does their order (longer
/// cookie paths first, then earlier creation, then storing order), so the `Cookie` field of a
/// request is the subsequence whose paths its path matches (§5.1.4), written in one pass. The
/// list remembers the last field and gives it again to a request with the same path. It
/// records when each cookie was last sent (`sendTimes`) for the jar to write back, and knows
/// nothing else of the jar: `locations` say where the jar keeps each cookie.
struct HostCookieList<Location> {
    /// Where one cookie's bytes are: `bytes[pathStart..<pairStart]` is its path,
    /// `bytes[pairStart..<pairEnd]` its `name=value` (the value alone when it has no name).
    private struct Extent {
        var pathStart: Int
        var pairStart: Int
        var pairEnd: Int
    }

    /// Where the jar keeps each cookie, in field order.
    private(set) var locations: [Location] = []
    private var extents: [Extent] = []
    private var bytes: [UInt8] = []
    /// When each cookie was last sent by a field before the last one (nil: not since
    /// `forgetSendTimes()`); complete once `foldLastField()` has run.
    private(set) var sendTimes: [Date?] = []
    /// The last field built, the request path it was for, the cookies it carries (their
    /// indices) and when it was last sent: a request to the same path gets it again by setting
    /// that time alone.
    private var lastField: String?
    private var lastPath: [UInt8] = []
    private var carried: [Int] = []
    private var lastFieldSentAt: Date?

    /// Empties the list, keeping its storage for the next host. Its send times are dropped:
    /// write them back first.
    mutating func removeAll() {
        locations.removeAll(keepingCapacity: true)
        extents.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        sendTimes.removeAll(keepingCapacity: true)
        carried.removeAll(keepingCapacity: true)
        lastField = nil
        lastFieldSentAt = nil
    }

    /// Adds the next cookie in field order.
    mutating func append(_ location: Location, path: String, name: String, value: String) {
        foldLastField()
        lastField = nil
        let pathStart = bytes.count
        appendUTF8(of: path)
        let pairStart = bytes.count
        if !name.isEmpty {
            appendUTF8(of: name)
            bytes.append(UInt8(ascii: "="))
        }
        appendUTF8(of: value)
        locations.append(location)
        extents.append(Extent(pathStart: pathStart, pairStart: pairStart, pairEnd: bytes.count))
        sendTimes.append(nil)
    }

    /// The `Cookie` field of a request whose path is `requestPath` (percent-encoded, as in the
    /// URL), sent at `now`, or nil when no cookie's path matches; the cookies it carries count
    /// as sent at `now`. One allocation (the string, at its exact length); none, and no walk of
    /// the list, when the last field was for the same path.
    mutating func field(forPath requestPath: Span<UInt8>, at now: Date) -> String? {
        if let lastField, Self.bytes(lastPath, equal: requestPath) {
            lastFieldSentAt = now
            return lastField
        }
        foldLastField()
        lastField = nil
        carried.removeAll(keepingCapacity: true)
        var length = 0
        for index in extents.indices {
            let extent = extents[index]
            let matches = CookieMatching.path(
                requestPath, matches: bytes.span.extracting(extent.pathStart..<extent.pairStart))
            guard matches else { continue }
            carried.append(index)
            length += extent.pairEnd - extent.pairStart
        }
        guard !carried.isEmpty else { return nil }
        length += 2 * (carried.count - 1)
        let field = bytes.withUnsafeBufferPointer { source in
            // SAFETY: `buffer` has room for `length` bytes: each carried cookie's pair
            // (`pairEnd - pairStart`, within `bytes`, which `source` covers) and "; " between
            // them, exactly what the loop writes in order; the closure returns the count.
            String(unsafeUninitializedCapacity: length) { buffer in
                var count = 0
                for (position, index) in carried.enumerated() {
                    if position > 0 {
                        buffer[count] = UInt8(ascii: ";")
                        buffer[count + 1] = UInt8(ascii: " ")
                        count += 2
                    }
                    let extent = extents[index]
                    let pairLength = extent.pairEnd - extent.pairStart
                    // SAFETY: as above: `count + pairLength <= length`, and the pair lies in `source`.
                    (buffer.baseAddress! + count).initialize(
                        from: source.baseAddress! + extent.pairStart, count: pairLength)
                    count += pairLength
                }
                return count
            }
        }
        lastPath.removeAll(keepingCapacity: true)
        for offset in 0..<requestPath.count { lastPath.append(requestPath[offset]) }
        lastField = field
        lastFieldSentAt = now
        return field
    }

    /// Writes the last field's send time into its cookies' `sendTimes`, so they are complete.
    mutating func foldLastField() {
        guard let sentAt = lastFieldSentAt else { return }
        for index in carried { sendTimes[index] = sentAt }
        lastFieldSentAt = nil
    }

    /// Forgets when the cookies were sent, once the jar has written those times back.
    mutating func forgetSendTimes() {
        foldLastField()
        for index in sendTimes.indices { sendTimes[index] = nil }
    }

    /// Appends `text`'s UTF-8 to `bytes` in one copy (appending its `utf8` view goes byte by
    /// byte through several checks).
    private mutating func appendUTF8(of text: String) {
        text.utf8.span.withUnsafeBufferPointer { source in
            // SAFETY: `source` is `text`'s UTF-8, valid for this closure; `append` copies it.
            bytes.append(contentsOf: source)
        }
    }

    private static func bytes(_ stored: [UInt8], equal path: Span<UInt8>) -> Bool {
        guard stored.count == path.count else { return false }
        for offset in 0..<path.count where stored[offset] != path[offset] { return false }
        return true
    }
}

extension HostCookieList: Sendable where Location: Sendable {}
