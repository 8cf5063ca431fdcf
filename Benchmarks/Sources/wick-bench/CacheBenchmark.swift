// `wick-bench cache`: a request answered by the session's response cache (a fresh hit, a 304
// revalidation) beside the same request over the network, with and without a cache configured.
import Foundation
import Wick

/// Sequential async GETs of 1 KiB through `Session` against an in-process server that allocates
/// nothing per request, in four forms: the network without a cache; the network with a cache
/// that cannot store the response (`no-store`: what a miss costs); a fresh hit (no request
/// sent); a stale entry validated by a `304 Not Modified` (a round trip, the stored body
/// served). Prints requests per second, client CPU and allocations per request (medians of the
/// rounds).
enum CacheBenchmark {
    /// One form's measurement.
    struct Row {
        let name: String
        let perSecond: Double
        let cpuMicroseconds: Double
        let allocations: Double
    }

    static let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1_024)

    static func response(status: String, fields: String, body: [UInt8]) -> [UInt8] {
        Array("HTTP/1.1 \(status)\r\n\(fields)Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// Runs `rounds` rounds of `requests` requests per form and prints the table.
    /// - Throws: `SocketError` if a server cannot listen, `BenchError` or `WickError` if a request fails.
    static func run(rounds: Int, requests: Int) throws {
        var rows: [Row] = []
        rows.append(try measure("network, no cache", rounds: rounds, requests: requests, cache: nil, server: FixedResponseServer.response))
        rows.append(try measure(
            "network, cache configured (no-store: a miss)", rounds: rounds, requests: requests,
            cache: MemoryResponseCache(), server: response(status: "200 OK", fields: "Cache-Control: no-store\r\n", body: body)))
        let fresh = MemoryResponseCache()
        rows.append(try measure(
            "fresh hit (memory cache, no request)", rounds: rounds, requests: requests, cache: fresh,
            server: response(status: "200 OK", fields: "Cache-Control: max-age=3600\r\n", body: body)))
        let stale = MemoryResponseCache()
        rows.append(try measure(
            "304 revalidation (memory cache)", rounds: rounds, requests: requests, cache: stale,
            server: response(status: "304 Not Modified", fields: "ETag: \"v1\"\r\n", body: []),
            seed: { url in
                CachedResponse(
                    url: url, statusCode: 200, headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"], data: Data(body),
                    requestDate: Date(), responseDate: Date())
            }))
        print("cache: sequential async GET 1 KiB through Session, \(requests) requests × \(rounds) rounds (medians)")
        for row in rows {
            print(
                "cache: \(row.name): \(Int(row.perSecond)) /s, \(Format.fixed(row.cpuMicroseconds, 1)) µs CPU, "
                    + "\(Format.fixed(row.allocations, 2)) allocations per request")
        }
    }

    /// One form: a session with `cache`, a server answering `server`, the cache seeded with
    /// `seed`'s entry when given (else the first request stores what the server sends).
    private static func measure(
        _ name: String, rounds: Int, requests: Int, cache: (any ResponseCache)?, server response: [UInt8],
        seed: ((URL) -> CachedResponse)? = nil
    ) throws -> Row {
        let server = try FixedResponseServer(response: response)
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        configuration.responseCache = cache
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        let url = "http://127.0.0.1:\(server.port)/bytes/1k"
        if let seed, let cache { cache.store(seed(URL(string: url)!)) }
        _ = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: 50)
        var rates: [Double] = []
        var cpu: [Double] = []
        var allocations: [Double] = []
        for _ in 0..<rounds {
            let round = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: requests)
            rates.append(Double(requests) / (Double(round.wallNanoseconds) / 1e9))
            cpu.append(Double(round.cpuNanoseconds) / Double(requests) / 1_000)
            allocations.append(Double(round.allocations) / Double(requests))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Row(name: name, perSecond: median(rates), cpuMicroseconds: median(cpu), allocations: median(allocations))
    }
}
