// The decoder benchmark's gzip cases (they need ContentDecoder from the http1-codecs work).

extension DecoderBenchmark {
    /// Wick's gzip path beside raw zlib inflate, on the same compressed bytes.
    static func gzipCases(body: [UInt8]) throws -> [Case] {
        []
    }
}
