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

    /// Where each name first appears. Entries with the same name are adjacent in the table
    /// (`:status` 8...14, for example), so a value lookup scans forward from here.
    private static let firstIndexByName: [[UInt8]: Int] = {
        var byName: [[UInt8]: Int] = [:]
        for (offset, entry) in entries.enumerated() where byName[entry.name] == nil {
            byName[entry.name] = offset + 1
        }
        return byName
    }()

    /// The index of the entry with exactly this name and value, and of the first entry with this
    /// name, if any: one hash lookup, then a scan of the name's adjacent entries. Does not allocate.
    static func find(name: [UInt8], value: [UInt8]) -> (exact: Int?, nameOnly: Int?) {
        guard let first = firstIndexByName[name] else { return (nil, nil) }
        var index = first
        while index <= entries.count && entries[index - 1].name == name {
            if entries[index - 1].value == value { return (index, first) }
            index += 1
        }
        return (nil, first)
    }
}
