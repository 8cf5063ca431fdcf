// Stands in for read(2): copies the next piece of a message into a reusable read buffer.

/// A message delivered in reads of a fixed size into one reused buffer, as a socket would.
final class ReadSimulation {
    let message: ByteInput
    let readSize: Int
    /// The read buffer: owned, `readSize` bytes.
    let readBuffer: UnsafeMutableRawBufferPointer

    init(message: ByteInput, readSize: Int) {
        self.message = message
        self.readSize = readSize
        readBuffer = .allocate(byteCount: readSize, alignment: 64)
    }

    deinit { readBuffer.deallocate() }

    /// Copies the read that starts at `offset` into the read buffer; returns its length.
    @inline(__always)
    func read(at offset: Int) -> Int {
        let count = min(readSize, message.count - offset)
        // SAFETY: count <= readSize (the buffer's size) and offset + count <= message.count.
        readBuffer.baseAddress!.copyMemory(from: message.buffer.baseAddress! + offset, byteCount: count)
        return count
    }
}
