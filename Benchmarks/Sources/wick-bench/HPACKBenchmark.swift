// The HPACK benchmark: WickHTTP2's encoder and decoder on a realistic response header set.

import WickHTTP2

/// Encodes and decodes one realistic response header list (13 fields, 507 bytes of names and
/// values, as a CDN-fronted API answers), cold (fresh tables: every field literal, Huffman-coded)
/// and warm (the second response on a connection: most fields indexed, only `date` and
/// `x-request-id` literal).
struct HPACKBenchmark {
    /// One workload and its allocations per operation.
    struct Case {
        let label: String
        let key: String
        let workload: Workload
        /// nghttp2 on the same list, where its API allows the same workload (cold tables).
        var peer: Workload? = nil
    }

    /// The response's fields; `date` and `x-request-id` change between responses.
    static func responseFields(serial: Int) -> [HPACKHeaderField] {
        [
            HPACKHeaderField(":status", "200"),
            HPACKHeaderField("date", "Thu, 26 Nov 2026 02:3\(serial % 10):0\(serial % 10) GMT"),
            HPACKHeaderField("content-type", "application/json; charset=utf-8"),
            HPACKHeaderField("content-length", "1432"),
            HPACKHeaderField("cache-control", "private, max-age=0, no-cache"),
            HPACKHeaderField("etag", "W/\"5a8-u3nI0Rk5E4ZkLh1nG+f6iY0cMbo\""),
            HPACKHeaderField("vary", "Accept-Encoding, Origin"),
            HPACKHeaderField("strict-transport-security", "max-age=63072000; includeSubDomains; preload"),
            HPACKHeaderField("x-request-id", "0f6d2c1e-7b0a-4f4e-9c55-\(String(100_000_000_000 + serial))"),
            HPACKHeaderField("x-content-type-options", "nosniff"),
            HPACKHeaderField("content-security-policy", "default-src 'none'; frame-ancestors 'none'"),
            HPACKHeaderField("set-cookie", "session=8d3e9b1f0c2a4e6b; Path=/; Secure; HttpOnly; SameSite=Lax"),
            HPACKHeaderField("server", "envoy"),
        ]
    }

    let cases: [Case]
    let nghttp2: NghttpHPACKPeer
    /// Bytes of names and values in the list, and its encoded size cold and warm.
    let listBytes: Int
    let coldBlockBytes: Int
    let warmBlockBytes: Int

    init() {
        let first = Self.responseFields(serial: 1)
        let second = Self.responseFields(serial: 2)
        listBytes = first.reduce(0) { $0 + $1.name.count + $1.value.count }
        var encoder = HPACKEncoder()
        var coldBlock: [UInt8] = []
        encoder.encode(first, into: &coldBlock)
        var warmBlock: [UInt8] = []
        encoder.encode(second, into: &warmBlock)
        coldBlockBytes = coldBlock.count
        warmBlockBytes = warmBlock.count
        let primed = encoder
        var primedDecoder = HPACKDecoder()
        _ = try? primedDecoder.decode(coldBlock[...])
        let decoderAfterFirst = primedDecoder
        let fieldCount = first.count
        let nghttp2 = NghttpHPACKPeer(fields: first)
        self.nghttp2 = nghttp2

        cases = [
            Case(
                label: "encode, cold tables", key: "encode.cold",
                workload: Workload(name: "hpack.encode.cold") { count in
                    var output: [UInt8] = []
                    output.reserveCapacity(1024)
                    var checksum = 0
                    for _ in 0..<count {
                        var encoder = HPACKEncoder()
                        output.removeAll(keepingCapacity: true)
                        encoder.encode(first, into: &output)
                        checksum &+= output.count
                    }
                    return checksum
                },
                peer: Workload(name: "nghttp2.encode.cold") { nghttp2.encodeCold($0) }),
            Case(
                label: "encode, warm tables", key: "encode.warm",
                workload: Workload(name: "hpack.encode.warm") { count in
                    var output: [UInt8] = []
                    output.reserveCapacity(1024)
                    var checksum = 0
                    for _ in 0..<count {
                        // The same second response each time: the table stays as after the first.
                        var encoder = primed
                        output.removeAll(keepingCapacity: true)
                        encoder.encode(second, into: &output)
                        checksum &+= output.count
                    }
                    return checksum
                }),
            Case(
                label: "decode, cold tables", key: "decode.cold",
                workload: Workload(name: "hpack.decode.cold") { count in
                    var checksum = 0
                    for _ in 0..<count {
                        var decoder = HPACKDecoder()
                        let count = (try? decoder.decode(coldBlock[...]))?.count ?? 0
                        precondition(count == fieldCount, "the cold block did not decode")
                        checksum &+= count
                    }
                    return checksum
                },
                peer: Workload(name: "nghttp2.decode.cold") { nghttp2.decodeCold($0) }),
            Case(
                label: "decode, warm tables", key: "decode.warm",
                workload: Workload(name: "hpack.decode.warm") { count in
                    var checksum = 0
                    for _ in 0..<count {
                        var decoder = decoderAfterFirst
                        let count = (try? decoder.decode(warmBlock[...]))?.count ?? 0
                        precondition(count == fieldCount, "the warm block did not decode")
                        checksum &+= count
                    }
                    return checksum
                }),
        ]
    }

    /// Allocations per header list for each case key, in the steady state.
    func allocationsPerList() -> [String: Double] {
        Dictionary(uniqueKeysWithValues: cases.map { ($0.key, allocationsPerOperation($0.workload)) })
    }

    /// Times Wick's workloads and nghttp2's in alternation and returns the table.
    func run(rounds: RoundRobin) -> ResultTable {
        var table = ResultTable(
            suite: "hpack",
            title: "HPACK on a 13-field response header list (ns per list, lower is better)",
            columns: [
                "workload", "Wick ns", "Wick ns/field", "Wick block B", "Wick allocs/list", "nghttp2 ns",
                "nghttp2 block B", "speed ratio", "nghttp2 allocs/list",
            ])
        let allocations = allocationsPerList()
        for testCase in cases {
            let samples = rounds.samples([testCase.workload] + (testCase.peer.map { [$0] } ?? []))
            let nanoseconds = samples[0].median
            let isCold = testCase.key.hasSuffix("cold")
            var row = [
                testCase.label, Format.fixed(nanoseconds, 0), Format.fixed(nanoseconds / 13, 0),
                String(isCold ? coldBlockBytes : warmBlockBytes), Format.fixed(allocations[testCase.key] ?? .nan, 2),
            ]
            if let peer = testCase.peer {
                row += [
                    Format.fixed(samples[1].median, 0), String(nghttp2.block.count),
                    Format.ratio(samples[0].speedRatio(to: samples[1])), Format.fixed(allocationsPerOperation(peer), 2),
                ]
            } else {
                row += ["—", "—", "—", "—"]
            }
            table.rows.append(row)
        }
        table.notes = [
            "\(rounds.summary). The list: \(listBytes) bytes of names and values (`:status`, date, content-type, content-length, cache-control, etag, vary, HSTS, x-request-id, x-content-type-options, CSP, set-cookie, server).",
            "Cold: a fresh encoder or decoder per list (a connection's first response: every field a literal, Huffman-coded when not longer). Warm: the tables as after the first response, encoding or decoding the second, where only `date` and `x-request-id` change; each operation copies the table (copy-on-write arrays: the first insert copies it), which the figures include.",
            "Decoding allocates the block's byte buffer and its field list, whatever the number of fields (names and values are slices of the buffer, validated before any String exists), and a fresh table its two buffers; a warm operation's copied table copies both buffers on its first insert. nghttp2 (Debian's libnghttp2 1.52, `nghttp2_hd_deflate_hd` and `nghttp2_hd_inflate_hd2`) runs the cold workloads in alternation with Wick's: a fresh deflater or inflater per list, its own encoding of the same list; it hands out names and values as pointers into its buffers, so it allocates per table entry, not per field. Its API cannot copy a table, so the warm rows have no peer.",
        ]
        return table
    }
}
