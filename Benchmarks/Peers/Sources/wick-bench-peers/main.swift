// wick-bench-peers: async-http-client (its NIO-futures API) as the `tls` suite's peer, driven by
// `wick-bench tls` over stdin/stdout so that its rounds alternate with Wick's and libcurl's.
//
//   wick-bench-peers BASE_URL CA_FILE      e.g. https://127.0.0.1:8443 /tmp/pki/root.pem
//
// Commands, one per line; each answer is one line, `ok VALUE` or `error MESSAGE`:
//   new 1.3|1.2 COUNT    COUNT GETs of /bytes/1k, each on a new connection (`Connection: close`,
//                        so the pool never reuses one); VALUE is the wall time in nanoseconds,
//                        then the process's CPU time (user + system) in nanoseconds
//   keepalive COUNT      COUNT sequential GETs of /bytes/1k on one pooled connection; as `new`
//   idle COUNT           opens COUNT connections at once (COUNT concurrent GETs, a pool limit of
//                        COUNT) and leaves them idle in the pool; VALUE is the heap growth in bytes
//   close-idle           shuts down the client that holds the idle connections; VALUE is 0
//   quit
import AsyncHTTPClient
import CPeerHeap
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The clients, one per workload, made once and kept across rounds.
final class Peer {
    let base: String
    let caFile: String
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let newConnection13: HTTPClient
    let newConnection12: HTTPClient
    let keepAlive: HTTPClient
    var idle: HTTPClient?

    init(base: String, caFile: String) {
        self.base = base
        self.caFile = caFile
        newConnection13 = Self.client(caFile: caFile, version: .tlsv13, poolLimit: 1, group: group)
        newConnection12 = Self.client(caFile: caFile, version: .tlsv12, poolLimit: 1, group: group)
        keepAlive = Self.client(caFile: caFile, version: .tlsv13, poolLimit: 1, group: group)
    }

    /// A client trusting only the test root, speaking exactly `version`.
    static func client(
        caFile: String, version: TLSVersion, poolLimit: Int, group: any EventLoopGroup
    ) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caFile)
        tls.minimumTLSVersion = version
        tls.maximumTLSVersion = version
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: poolLimit)
        return HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
    }

    /// One GET of /bytes/1k; checks the status and the body's length.
    func get(_ client: HTTPClient, close: Bool) throws {
        var request = try HTTPClient.Request(url: base + "/bytes/1k", method: .GET)
        if close { request.headers.add(name: "Connection", value: "close") }
        let response = try client.execute(request: request).wait()
        guard response.status == .ok, response.body?.readableBytes == 1_024 else {
            throw PeerError("GET /bytes/1k: \(response.status), \(response.body?.readableBytes ?? 0) bytes")
        }
    }

    func run(_ words: [Substring]) throws -> String {
        switch (words.first, words.count) {
        case ("new", 3):
            let client = words[1] == "1.2" ? newConnection12 : newConnection13
            return try timed(count: words[2]) { try get(client, close: true) }
        case ("keepalive", 2):
            return try timed(count: words[1]) { try get(keepAlive, close: false) }
        case ("idle", 2):
            guard let count = Int(words[1]), count > 0 else { throw PeerError("idle needs a count") }
            let client = Self.client(caFile: caFile, version: .tlsv13, poolLimit: count, group: group)
            idle = client
            let before = heapBytes()
            let request = try HTTPClient.Request(url: base + "/bytes/1k", method: .GET)
            let responses = (0..<count).map { _ in client.execute(request: request) }
            for response in responses { _ = try response.wait() }
            return String(max(0, Int64(heapBytes()) - Int64(before)))
        case ("close-idle", 1):
            try idle?.syncShutdown()
            idle = nil
            return "0"
        default:
            throw PeerError("unknown command \(words.joined(separator: " "))")
        }
    }

    /// Runs `body` COUNT times; the wall time and the process's CPU time, in nanoseconds.
    private func timed(count: Substring, _ body: () throws -> Void) throws -> String {
        guard let count = Int(count), count > 0 else { throw PeerError("needs a positive count") }
        let start = monotonic()
        let cpuStart = processCPU()
        for _ in 0..<count { try body() }
        return "\(monotonic() - start) \(processCPU() - cpuStart)"
    }

    func shutdown() {
        for client in [newConnection13, newConnection12, keepAlive] + (idle.map { [$0] } ?? []) {
            try? client.syncShutdown()
        }
        try? group.syncShutdownGracefully()
    }
}

struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func monotonic() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// User plus system CPU time of the whole process (every thread), in nanoseconds.
func processCPU() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Bytes allocated from malloc now (every arena, mmapped blocks included).
func heapBytes() -> UInt64 { UInt64(peer_heap_bytes()) }

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: wick-bench-peers BASE_URL CA_FILE")
    exit(2)
}
let peer = Peer(base: arguments[1], caFile: arguments[2])
while let line = readLine() {
    let words = line.split(separator: " ")
    if words.first == "quit" { break }
    do {
        print("ok \(try peer.run(words))")
    } catch {
        print("error \(String(describing: error).split(separator: "\n").joined(separator: " "))")
    }
    // stdout is a pipe, so fully buffered: every answer goes out at once (nil flushes every stream).
    fflush(nil)
}
peer.shutdown()
