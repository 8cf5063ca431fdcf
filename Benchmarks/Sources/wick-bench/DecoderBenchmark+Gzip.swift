// The decoder benchmark's gzip cases: Wick's ContentDecoder beside raw zlib inflate.

extension DecoderBenchmark {
    /// Wick's gzip path beside raw zlib inflate, on the same compressed bytes in the same pieces.
    static func gzipCases(body: [UInt8]) throws -> [Case] {
        let compressed = BodyFixtures.gzip(body)
        let wick = try WickContentDecoderRunner(
            coding: .gzip, compressed: compressed, pieceSize: compressedPieceSize, decodedCount: body.count)
        let zlib = ZlibInflateRunner(
            compressed: compressed, pieceSize: compressedPieceSize, decodedCount: body.count, outputSize: 64 * 1024)
        let ratio = Double(body.count) / Double(compressed.count)
        return [
            Case(
                label: "gzip 1 MiB (\(Format.grouped(compressed.count)) B compressed, \(Format.fixed(ratio, 1))×)",
                key: "gzip", peerName: "zlib inflate (raw)",
                decodedBytes: body.count,
                wick: Workload(name: "wick.gzip") { wick.run($0) },
                peer: Workload(name: "zlib.gzip") { zlib.run($0) })
        ]
    }
}
