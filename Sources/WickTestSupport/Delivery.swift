// Every way a stream of bytes can arrive: whole, split at each offset, one byte at a time.

/// One way of cutting an input into the pieces a decoder is fed, named for test messages.
///
/// Incremental decoders (the response parser, the chunked and content decoders) must produce the
/// same events whatever the cut; tests run each case through `Delivery.all(of:)`.
public struct Delivery: Sendable, CustomStringConvertible {
    /// What this cut is, e.g. `split at 17` or `byte at a time`.
    public let name: String
    /// The pieces, in order; concatenated they are the original input.
    public let pieces: [ArraySlice<UInt8>]

    /// A named cut.
    public init(name: String, pieces: [ArraySlice<UInt8>]) {
        self.name = name
        self.pieces = pieces
    }

    /// The cut's name.
    public var description: String { name }

    /// The whole input at once.
    public static func whole(_ input: [UInt8]) -> Delivery {
        Delivery(name: "whole", pieces: [input[...]])
    }

    /// One byte per piece.
    public static func byteAtATime(_ input: [UInt8]) -> Delivery {
        Delivery(name: "byte at a time", pieces: input.indices.map { input[$0...$0] })
    }

    /// Two pieces cut at `offset` (0 and `count` give an empty piece, which decoders must accept).
    public static func split(_ input: [UInt8], at offset: Int) -> Delivery {
        precondition((0...input.count).contains(offset), "split offset \(offset) outside 0...\(input.count)")
        return Delivery(name: "split at \(offset)", pieces: [input[..<offset], input[offset...]])
    }

    /// Pieces of a fixed size (the last may be shorter).
    public static func chunks(_ input: [UInt8], size: Int) -> Delivery {
        precondition(size > 0, "chunk size must be positive")
        let pieces = stride(from: 0, to: input.count, by: size).map {
            input[$0..<min($0 + size, input.count)]
        }
        return Delivery(name: "chunks of \(size)", pieces: pieces)
    }

    /// Whole, byte at a time, and a split at every offset from 0 to `count`: O(n²) bytes fed,
    /// fine for golden cases of a few kilobytes.
    public static func all(of input: [UInt8]) -> [Delivery] {
        [whole(input), byteAtATime(input)] + (0...input.count).map { split(input, at: $0) }
    }
}
