// Deterministic bytes for bodies of any size, so a test can regenerate what a server holds.

/// Pseudo-random but reproducible bytes (splitmix64): the same `count` and `seed` always give
/// the same bytes, so a download test checks content without keeping a copy.
public enum TestPayload {
    /// `count` bytes from `seed`.
    public static func bytes(count: Int, seed: UInt64 = 0x5749_434B) -> [UInt8] {
        var state = seed
        var output = [UInt8]()
        output.reserveCapacity(count + 8)
        while output.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { output.append(contentsOf: $0) }
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
