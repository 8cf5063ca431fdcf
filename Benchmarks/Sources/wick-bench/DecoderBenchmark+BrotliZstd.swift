// The decoder benchmark's br and zstd cases: Wick's ContentDecoder beside the raw libraries.
import WickTestSupport

extension DecoderBenchmark {
    /// Wick's br and zstd paths beside raw libbrotlidec and libzstd, on the same compressed bytes
    /// in the same pieces. Levels are the common on-the-fly server settings: brotli quality 5,
    /// zstd level 3.
    static func brotliZstdCases(body: [UInt8]) throws -> [Case] {
        let brotli = TestBrotliEncoder.compress(body, quality: 5)
        let zstd = TestZstdEncoder.compress(body, level: 3)
        let wickBrotli = try WickContentDecoderRunner(
            coding: .brotli, compressed: brotli, pieceSize: compressedPieceSize, decodedCount: body.count)
        let rawBrotli = BrotliDecodeRunner(
            compressed: brotli, pieceSize: compressedPieceSize, decodedCount: body.count, outputSize: 64 * 1024)
        let wickZstd = try WickContentDecoderRunner(
            coding: .zstd, compressed: zstd, pieceSize: compressedPieceSize, decodedCount: body.count)
        let rawZstd = ZstdDecodeRunner(
            compressed: zstd, pieceSize: compressedPieceSize, decodedCount: body.count, outputSize: 64 * 1024)
        func label(_ name: String, _ compressed: [UInt8]) -> String {
            let ratio = Double(body.count) / Double(compressed.count)
            return "\(name) 1 MiB (\(Format.grouped(compressed.count)) B compressed, \(Format.fixed(ratio, 1))×)"
        }
        return [
            Case(
                label: label("br", brotli), key: "br", peerName: "libbrotlidec (raw)", decodedBytes: body.count,
                wick: Workload(name: "wick.br") { wickBrotli.run($0) },
                peer: Workload(name: "brotli.br") { rawBrotli.run($0) }),
            Case(
                label: label("zstd", zstd), key: "zstd", peerName: "libzstd (raw)", decodedBytes: body.count,
                wick: Workload(name: "wick.zstd") { wickZstd.run($0) },
                peer: Workload(name: "zstd.zstd") { rawZstd.run($0) }),
        ]
    }
}
