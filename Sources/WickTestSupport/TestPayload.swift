// Deterministic bytes for bodies of any size, so a test can regenerate what a server holds.

/// Pseudo-random but reproducible bytes (`SeededRandom`): the same `count` and `seed` always give
/// the same bytes, so a download test checks content without keeping a copy.
public enum TestPayload {
    /// `count` bytes from `seed`.
    public static func bytes(count: Int, seed: UInt64 = 0x5749_434B) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var output = [UInt8]()
        output.reserveCapacity(count + 8)
        while output.count < count {
            // SAFETY: the closure borrows the bytes of a UInt64 temporary, valid inside it; append
            // copies all 8.
            withUnsafeBytes(of: random.next().littleEndian) { output.append(contentsOf: $0) }
        }
        output.removeLast(output.count - count)
        return output
    }

    /// Compressible text of about `count` bytes: numbered lines, the kind of body gzip is for.
    public static func text(count: Int) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(count + 64)
        var line = 0
        while output.count < count {
            output.append(contentsOf: "line \(line): the quick brown fox jumps over the lazy wick\n".utf8)
            line += 1
        }
        output.removeLast(output.count - count)
        return output
    }
}
