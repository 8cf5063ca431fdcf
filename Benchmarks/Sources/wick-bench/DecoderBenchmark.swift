// The body-decoding benchmark: chunked through Wick's parser beside picohttpparser's
// phr_decode_chunked, and gzip, br and zstd through Wick's ContentDecoder beside raw zlib inflate,
// libbrotlidec and libzstd.

/// Decodes a 1 MiB body: chunk-framed (8 KiB and 16 KiB chunks), and gzip-, br- and
/// zstd-compressed.
struct DecoderBenchmark {
    /// One workload, run by Wick and by its peer.
    struct Case {
        let label: String
        let key: String
        let peerName: String
        let decodedBytes: Int
        let wick: Workload
        let peer: Workload
    }

    /// The decoded body size.
    static let bodySize = 1 << 20
    /// Bytes per simulated socket read of a chunked message.
    static let readSize = 64 * 1024
    /// Bytes of compressed body handed to a decoder at once (a typical read).
    static let compressedPieceSize = 16 * 1024

    let cases: [Case]

    init() throws {
        let body = BodyFixtures.jsonText(byteCount: Self.bodySize)
        var cases: [Case] = []
        for chunkSize in [8 * 1024, 16 * 1024] {
            let message = ByteInput(
                name: "chunked-\(chunkSize)", contents: BodyFixtures.chunkedResponse(body: body, chunkSize: chunkSize))
            let wick = WickChunkedRunner(
                reads: ReadSimulation(message: message, readSize: Self.readSize), bodyCount: body.count)
            let pico = PicoChunkedRunner(
                reads: ReadSimulation(message: message, readSize: Self.readSize), bodyCount: body.count)
            cases.append(
                Case(
                    label: "chunked 1 MiB, \(chunkSize / 1024) KiB chunks, 64 KiB reads",
                    key: "chunked.\(chunkSize / 1024)k", peerName: "picohttpparser phr_decode_chunked",
                    decodedBytes: body.count,
                    wick: Workload(name: "wick.chunked.\(chunkSize / 1024)k") { wick.run($0) },
                    peer: Workload(name: "pico.chunked.\(chunkSize / 1024)k") { pico.run($0) }))
        }
        cases.append(contentsOf: try Self.gzipCases(body: body))
        cases.append(contentsOf: try Self.brotliZstdCases(body: body))
        self.cases = cases
    }

    /// Every workload, Wick's and the peer's, for the callgrind probe.
    var workloads: [Workload] { cases.flatMap { [$0.wick, $0.peer] } }

    /// Wick's allocations per decoded body for each case key, in the steady state.
    func allocationsPerBody() -> [String: Double] {
        Dictionary(uniqueKeysWithValues: cases.map { ($0.key, allocationsPerOperation($0.wick, operations: 200)) })
    }

    /// Times Wick and its peers in alternation and returns the table.
    func run(rounds: RoundRobin, instructions: [String: Double]?) -> ResultTable {
        var table = ResultTable(
            suite: "decoders",
            title: "Body decoding (MiB/s of decoded body, higher is better)",
            columns: [
                "workload", "Wick MiB/s", "peer", "peer MiB/s", "speed ratio", "Wick allocs/body",
                "instructions/byte Wick · peer",
            ])
        let allocations = allocationsPerBody()
        for testCase in cases {
            let samples = rounds.samples([testCase.wick, testCase.peer])
            let mebibytes = Double(testCase.decodedBytes) / Double(1 << 20)
            let instructionCell =
                instructions.map { counts in
                    let wick =
                        counts[testCase.wick.name].map { Format.fixed($0 / Double(testCase.decodedBytes), 2) } ?? "?"
                    let peer =
                        counts[testCase.peer.name].map { Format.fixed($0 / Double(testCase.decodedBytes), 2) } ?? "?"
                    return "\(wick) · \(peer)"
                } ?? "not measured"
            table.rows.append([
                testCase.label,
                Format.fixed(mebibytes / (samples[0].median / 1e9), 0),
                testCase.peerName,
                Format.fixed(mebibytes / (samples[1].median / 1e9), 0),
                Format.ratio(samples[0].speedRatio(to: samples[1])),
                Format.fixed(allocations[testCase.key] ?? .nan, 2),
                instructionCell,
            ])
        }
        table.notes = [
            "\(rounds.summary), Wick and its peer alternating; the speed ratio is the median of the per-round ratios (Wick ÷ peer).",
            "Chunked: the whole response (small head, JSON-like body, last chunk) is copied read by read into a 64 KiB buffer, standing in for read(2), for both. Wick hands body bytes out as ranges of that buffer; picohttpparser moves each chunk's data down over the framing, in place.",
            "gzip: \(Self.compressedPieceSize / 1024) KiB pieces of the compressed body (zlib level 6) go to Wick's ContentDecoder (reset between bodies, default limits) and to zlib's inflate with a 64 KiB output buffer (inflateReset between bodies). The goal is Wick at 0.90× or better; instructions per byte (callgrind) are the steady figure when the machine is busy. A reused ContentDecoder allocates nothing per body.",
            "br and zstd: the same pieces to Wick's ContentDecoder and to libbrotlidec (a fresh state per body in both: brotli has no reset) and libzstd (one context, ZSTD_DCtx_reset between bodies), each with a 64 KiB output buffer; brotli quality 5, zstd level 3. A br body's allocations are brotli's own state and window.",
        ]
        return table
    }
}
