// Wick's content-decoding path: ContentDecoder (one per connection, reset between bodies) over the
// same compressed pieces that the raw library (zlib, brotli, zstd) decodes.
import WickHTTP1

/// Decodes a body in one coding with Wick's `ContentDecoder`, counting the decoded bytes it hands
/// out.
final class WickContentDecoderRunner {
    let compressed: [UInt8]
    let pieceSize: Int
    let decodedCount: Int
    private let decoder: ContentDecoder
    /// The codings list, made once (a connection driver builds it from the head's fields).
    private let codings: [ContentCoding]

    init(coding: ContentCoding, compressed: [UInt8], pieceSize: Int, decodedCount: Int) throws {
        self.compressed = compressed
        self.pieceSize = pieceSize
        self.decodedCount = decodedCount
        codings = [coding]
        decoder = try ContentDecoder(codings: codings)
    }

    /// Decodes the body `iterations` times; returns the decoded bytes.
    func run(_ iterations: Int) -> Int {
        var total = 0
        for _ in 0..<iterations {
            let decoded = decodeOnce()
            precondition(decoded == decodedCount, "Wick decoded \(decoded) bytes, not \(decodedCount)")
            total &+= decoded
        }
        return total
    }

    private func decodeOnce() -> Int {
        var decoded = 0
        do {
            try decoder.reset(codings: codings)
            var offset = 0
            while offset < compressed.count {
                let end = min(offset + pieceSize, compressed.count)
                try decoder.decode(compressed[offset..<end]) { piece in
                    decoded &+= piece.count
                    blackHole(piece.first)
                }
                offset = end
            }
            try decoder.finish()
        } catch {
            fatalError("Wick's ContentDecoder rejected the \(codings) body: \(error)")
        }
        return decoded
    }
}
