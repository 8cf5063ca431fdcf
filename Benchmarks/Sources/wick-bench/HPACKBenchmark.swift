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
                }),
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
                        let fields = (try? decoder.decode(coldBlock[...])) ?? []
                        precondition(fields.count == fieldCount, "the cold block did not decode")
                        checksum &+= fields.count
                    }
                    return checksum
                }),
            Case(
                label: "decode, warm tables", key: "decode.warm",
                workload: Workload(name: "hpack.decode.warm") { count in
                    var checksum = 0
                    for _ in 0..<count {
                        var decoder = decoderAfterFirst
                        let fields = (try? decoder.decode(warmBlock[...])) ?? []
                        precondition(fields.count == fieldCount, "the warm block did not decode")
                        checksum &+= fields.count
                    }
                    return checksum
                }),
        ]
    }

    /// Allocations per header list for each case key, in the steady state.
    func allocationsPerList() -> [String: Double] {
        Dictionary(uniqueKeysWithValues: cases.map { ($0.key, allocationsPerOperation($0.workload)) })
    }

    /// Times the four workloads in alternation and returns the table.
    func run(rounds: RoundRobin) -> ResultTable {
        var table = ResultTable(
            suite: "hpack",
            title: "HPACK on a 13-field response header list (ns per list, lower is better)",
            columns: ["workload", "ns per list", "ns per field", "block bytes", "allocs/list"])
        let samples = rounds.samples(cases.map(\.workload))
        let allocations = allocationsPerList()
        for (index, testCase) in cases.enumerated() {
            let nanoseconds = samples[index].median
            table.rows.append([
                testCase.label, Format.fixed(nanoseconds, 0), Format.fixed(nanoseconds / 13, 0),
                String(testCase.key.hasSuffix("cold") ? coldBlockBytes : warmBlockBytes),
                Format.fixed(allocations[testCase.key] ?? .nan, 2),
            ])
        }
        table.notes = [
            "\(rounds.summary). The list: \(listBytes) bytes of names and values (`:status`, date, content-type, content-length, cache-control, etag, vary, HSTS, x-request-id, x-content-type-options, CSP, set-cookie, server).",
            "Cold: a fresh encoder or decoder per list (a connection's first response: every field a literal, Huffman-coded when not longer). Warm: the tables as after the first response, encoding or decoding the second, where only `date` and `x-request-id` change; each operation copies the table (copy-on-write arrays: the first insert copies it), which the figures include.",
            "Decoding allocates the field list and one array per name and value (fields are bytes, validated before any String exists); no peer in this run (nghttp2's HPACK would be the one; its headers are not installed here).",
        ]
        return table
    }
}
