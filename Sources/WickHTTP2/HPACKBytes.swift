// Byte-string equality for the HPACK tables and field checks, over contiguous storage.

/// Whether `first` and `second` hold the same bytes. Contiguous collections (buffer pointers,
/// arrays, native strings' UTF-8) are compared as two buffers in one tight loop; others element
/// by element. The generic `elementsEqual` cost ~260 instructions a call through its
/// iterators, and a request's fields take about twenty comparisons in the tables and checks.
func bytesEqual(_ first: some Collection<UInt8>, _ second: some Collection<UInt8>) -> Bool {
    guard first.count == second.count else { return false }
    // SAFETY: both buffers are the collections' own storage, valid inside their closures, and of
    // the same length (checked above); only their bytes are read.
    let compared = first.withContiguousStorageIfAvailable { ours in
        second.withContiguousStorageIfAvailable { theirs in
            for index in 0..<ours.count where ours[index] != theirs[index] { return false }
            return true
        }
    }
    return (compared ?? nil) ?? first.elementsEqual(second)
}
