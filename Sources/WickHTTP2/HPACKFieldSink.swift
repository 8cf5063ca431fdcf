// Where a header list goes one field at a time, as bytes, without being copied into fields first.

/// Takes a header list one field at a time: the request's field walk (`HTTP2RequestFields`)
/// feeds one sink to measure and validate a list (`HPACKListSize`) and then the encoder to
/// encode it, so a request's fields go from its `HTTPHeaders` into the header block without an
/// `HPACKHeaderField` (two arrays) per field.
protocol HPACKFieldSink {
    /// The next field: its name (lowercase bytes), its value, and how it may be indexed.
    mutating func field(name: some Collection<UInt8>, value: some Collection<UInt8>, indexing: HPACKIndexing)
}

/// A header list's size as SETTINGS_MAX_HEADER_LIST_SIZE counts it (RFC 9113 §6.5.2): each
/// field's name and value lengths plus 32.
struct HPACKListSize: HPACKFieldSink {
    /// The size of the fields seen so far.
    private(set) var size = 0

    mutating func field(name: some Collection<UInt8>, value: some Collection<UInt8>, indexing: HPACKIndexing) {
        size += name.count + value.count + 32
    }
}
