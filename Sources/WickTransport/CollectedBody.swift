// A response body collected in memory: reads may land in its spare capacity, and it becomes the
// caller's `Data` without a copy.
package import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The bytes of one response body as they arrive, in one `malloc`ed block that grows by
/// doubling (or is sized once from a declared length), handed out as `Data` that takes the
/// block over (`take()`).
///
/// Unlike appending to a `Data`, its spare capacity can be lent to a read
/// (`spareCapacity(maximum:)`): bytes read there and then handed back (`append(_:)` with
/// the same memory) are counted, not copied.
package struct CollectedBody: ~Copyable {
    /// The most unused bytes `take()` leaves in the block it hands out.
    static let slackKeptAtTake = 4096

    /// The block; nil until the first byte or reservation.
    private var start: UnsafeMutableRawPointer?
    /// Bytes collected.
    package private(set) var count = 0
    /// Bytes the block holds.
    private var capacity = 0

    package init() {}

    deinit {
        free(start)
    }

    /// Makes room for `total` bytes in all, at once (a declared `Content-Length`).
    package mutating func reserveCapacity(_ total: Int) {
        if total > capacity { resize(to: total) }
    }

    /// Adds `bytes`. Bytes that lie exactly at the end of what is collected, in the memory
    /// `spareCapacity(maximum:)` lent, were read in place: they are counted, not copied.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // SAFETY: only addresses are compared here; the bytes are read below, in the copy.
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if let start, source == UnsafeRawPointer(start + count), bytes.count <= capacity - count {
            count += bytes.count
            return
        }
        if bytes.count > capacity - count { resize(to: Swift.max(capacity * 2, count + bytes.count)) }
        // SAFETY: `resize` made room for `bytes.count` more bytes after `count`; `bytes` is the
        // caller's, valid for this call, and not inside the block's free space (that case
        // returned above, and a block that moved is new memory).
        (start! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The free space after what is collected, at most `maximum` bytes, for a read to land in;
    /// nil when there is none. Valid until the next mutation.
    package mutating func spareCapacity(maximum: Int) -> UnsafeMutableRawBufferPointer? {
        let free = Swift.min(capacity - count, maximum)
        guard let start, free > 0 else { return nil }
        // SAFETY: `start + count ..< start + capacity` is the block's allocated, unused tail, and
        // `free` does not pass its end; it stays valid until the block is resized or taken.
        return UnsafeMutableRawBufferPointer(start: start + count, count: free)
    }

    /// The most one read lent to a chunk takes: four times the loop's 64 KiB buffer, so a bulk
    /// body costs a quarter of the reads.
    static let maximumChunkRead = 256 * 1024
    /// The least, when the reader is near its high mark: the loop's buffer, so a reader holds at
    /// most one loop buffer past its mark (as `DataStreamRequest.BufferingPolicy` documents).
    static let minimumChunkRead = 64 * 1024

    /// Room for the next chunk of a stream or download, lent to the connection's read (see
    /// `spareCapacity`): at most `maximum` bytes, as much as the reader takes before its high
    /// mark (`room`) within the bounds above; the block grows to hold it.
    package mutating func lendChunk(maximum: Int, room: Int) -> UnsafeMutableRawBufferPointer? {
        let size = Swift.min(maximum, Self.maximumChunkRead, Swift.max(Self.minimumChunkRead, room))
        reserveCapacity(count + size)
        return spareCapacity(maximum: size)
    }

    /// The body as `Data`, which takes the block over (freed with it); this is empty after.
    /// A block with much more room than bytes (a read that came back short, growth by
    /// doubling) is shrunk first, in place where `realloc` can.
    package mutating func take() -> Data {
        guard start != nil, count > 0 else {
            removeAll()
            return Data()
        }
        if capacity - count > Self.slackKeptAtTake { resize(to: count) }
        guard let block = start else { preconditionFailure("CollectedBody: no block after resizing") }
        let data = Data(bytesNoCopy: block, count: count, deallocator: .free)
        start = nil
        count = 0
        capacity = 0
        return data
    }

    /// Forgets what was collected and frees the block.
    package mutating func removeAll() {
        free(start)
        start = nil
        count = 0
        capacity = 0
    }

    private mutating func resize(to newCapacity: Int) {
        guard let block = realloc(start, newCapacity) else {
            fatalError("CollectedBody: out of memory growing to \(newCapacity) bytes")
        }
        start = block
        capacity = newCapacity
    }
}
