// HPACK's static table (RFC 7541 Appendix A): 61 fields every encoder and decoder share.

/// The static table and the lookups the encoder makes in it.
enum HPACKStaticTable {
    /// The entries, index 1 first (`entries[0]` is index 1).
    static let entries: [HPACKHeaderField] = [
        (":authority", ""),  // 1
        (":method", "GET"),  // 2
        (":method", "POST"),  // 3
        (":path", "/"),  // 4
        (":path", "/index.html"),  // 5
        (":scheme", "http"),  // 6
        (":scheme", "https"),  // 7
        (":status", "200"),  // 8
        (":status", "204"),  // 9
        (":status", "206"),  // 10
        (":status", "304"),  // 11
        (":status", "400"),  // 12
        (":status", "404"),  // 13
        (":status", "500"),  // 14
        ("accept-charset", ""),  // 15
        ("accept-encoding", "gzip, deflate"),  // 16
        ("accept-language", ""),  // 17
        ("accept-ranges", ""),  // 18
        ("accept", ""),  // 19
        ("access-control-allow-origin", ""),  // 20
        ("age", ""),  // 21
        ("allow", ""),  // 22
        ("authorization", ""),  // 23
        ("cache-control", ""),  // 24
        ("content-disposition", ""),  // 25
        ("content-encoding", ""),  // 26
        ("content-language", ""),  // 27
        ("content-length", ""),  // 28
        ("content-location", ""),  // 29
        ("content-range", ""),  // 30
        ("content-type", ""),  // 31
        ("cookie", ""),  // 32
        ("date", ""),  // 33
        ("etag", ""),  // 34
        ("expect", ""),  // 35
        ("expires", ""),  // 36
        ("from", ""),  // 37
        ("host", ""),  // 38
        ("if-match", ""),  // 39
        ("if-modified-since", ""),  // 40
        ("if-none-match", ""),  // 41
        ("if-range", ""),  // 42
        ("if-unmodified-since", ""),  // 43
        ("last-modified", ""),  // 44
        ("link", ""),  // 45
        ("location", ""),  // 46
        ("max-forwards", ""),  // 47
        ("proxy-authenticate", ""),  // 48
        ("proxy-authorization", ""),  // 49
        ("range", ""),  // 50
        ("referer", ""),  // 51
        ("refresh", ""),  // 52
        ("retry-after", ""),  // 53
        ("server", ""),  // 54
        ("set-cookie", ""),  // 55
        ("strict-transport-security", ""),  // 56
        ("transfer-encoding", ""),  // 57
        ("user-agent", ""),  // 58
        ("vary", ""),  // 59
        ("via", ""),  // 60
        ("www-authenticate", ""),  // 61
    ].map { HPACKHeaderField($0.0, $0.1) }

    /// For each name length, the index of each name's first entry of that length. Entries with
    /// the same name are adjacent in the table (`:status` 8...14, for example), so a value
    /// lookup scans forward from there.
    private static let firstIndexesByNameLength: [[Int]] = {
        let longest = entries.map(\.name.count).max() ?? 0
        var byLength = [[Int]](repeating: [], count: longest + 1)
        for (offset, entry) in entries.enumerated() where offset == 0 || entries[offset - 1].name != entry.name {
            byLength[entry.name.count].append(offset + 1)
        }
        return byLength
    }()

    /// The index of the entry with exactly this name and value, and of the first entry with this
    /// name, if any: the few names of the same length are compared, then the name's adjacent
    /// entries scanned. Does not allocate.
    static func find(name: some Collection<UInt8>, value: some Collection<UInt8>) -> (exact: Int?, nameOnly: Int?) {
        let length = name.count
        guard length < firstIndexesByNameLength.count,
            let first = firstIndexesByNameLength[length].first(where: { bytesEqual(entries[$0 - 1].name, name) })
        else { return (nil, nil) }
        let valueLength = value.count
        var index = first
        while index <= entries.count && bytesEqual(entries[index - 1].name, name) {
            let entryValue = entries[index - 1].value
            if entryValue.count == valueLength && bytesEqual(entryValue, value) { return (index, first) }
            index += 1
        }
        return (nil, first)
    }
}
