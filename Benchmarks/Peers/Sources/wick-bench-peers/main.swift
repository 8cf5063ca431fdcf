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
// For the `requests` suite (BASE_URL is then plain http://):
//   http-seq COUNT       COUNT sequential GETs of /bytes/1k on one pooled connection (futures);
//                        VALUES: wall ns, CPU ns, then p50, p99 and p99.9 latency in ns
//   http-seq-async COUNT the same through the async/await API (`execute(_:timeout:)`)
//   http-conc LANES COUNT COUNT GETs of /bytes/1k, LANES at a time over LANES pooled connections
//                        (futures); VALUES: wall ns, CPU ns
//   http-10m COUNT       COUNT sequential GETs of /bytes/10m (body collected, as the futures API
//                        does); VALUES: wall ns, CPU ns, heap growth in bytes from the start to the
//                        first body's arrival (that body held)
// For the `http2` suite (BASE_URL https:// of nginx's HTTP/2 listener, CA_FILE its root):
//   h2-seq COUNT         COUNT sequential GETs of /bytes/1k over one HTTP/2 connection (futures,
//                        `httpVersion = .automatic`, ALPN); VALUES: wall ns, CPU ns. Every
//                        response must be 200, 1,024 bytes, HTTP/2
//   h2-conc LANES COUNT  COUNT GETs of /bytes/1k, LANES chained futures at a time, multiplexed
//                        on the same client's one HTTP/2 connection; VALUES and checks as h2-seq
//   h2-download COUNT    COUNT sequential GETs of /bytes/10m on the same connection (body
//                        collected); VALUES as http-10m. Every response must be 200, 10 MiB, HTTP/2
//   h2-connections       VALUE: this process's TCP connections to BASE_URL's port now (the
//                        HTTP/2 client never closes its connection, so 1 means it opened one)
// For the `transfers` suite (BASE_URL plain http://):
//   file-down FILE URLPATH   GET BASE_URL+URLPATH into FILE with `FileDownloadDelegate`; VALUES:
//                            wall ns, then the heap's peak growth in bytes (sampled every ms)
//   file-up FILE URLPATH     PUT FILE to BASE_URL+URLPATH, its body streamed from the file in 64 KiB
//                            `ByteBuffer`s (async/await API, known length); VALUES as file-down
//   quit
import AsyncHTTPClient
import CPeerHeap
import Dispatch
import Glibc
import NIOConcurrencyHelpers
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
    /// Plain-HTTP clients for the `requests` suite, by pool limit, made on first use.
    var plain: [Int: HTTPClient] = [:]
    /// The `http2` suite's client (HTTP/2 through ALPN, one connection), made on first use.
    var http2: HTTPClient?

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
        case ("http-seq", 2):
            let client = plainClient(poolLimit: 1)
            let request = try HTTPClient.Request(url: base + "/bytes/1k", method: .GET)
            return try latencies(count: words[1]) {
                let response = try client.execute(request: request).wait()
                guard response.status == .ok, response.body?.readableBytes == 1_024 else {
                    throw PeerError("GET /bytes/1k: \(response.status)")
                }
            }
        case ("http-seq-async", 2):
            let client = plainClient(poolLimit: 1)
            let url = base + "/bytes/1k"
            return try latencies(count: words[1]) {
                try blocking {
                    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 1 << 20)
                    guard response.status == .ok, body.readableBytes == 1_024 else {
                        throw PeerError("GET /bytes/1k: \(response.status)")
                    }
                }
            }
        case ("http-conc", 3):
            guard let lanes = Int(words[1]), lanes > 0, let count = Int(words[2]), count >= lanes else {
                throw PeerError("http-conc needs LANES and COUNT >= LANES")
            }
            let client = plainClient(poolLimit: lanes)
            let request = try HTTPClient.Request(url: base + "/bytes/1k", method: .GET)
            let loop = group.next()
            func lane(_ remaining: Int) -> EventLoopFuture<Void> {
                client.execute(request: request, eventLoop: .delegate(on: loop)).flatMapThrowing { response in
                    guard response.status == .ok, response.body?.readableBytes == 1_024 else {
                        throw PeerError("GET /bytes/1k: \(response.status)")
                    }
                }.flatMap { remaining > 1 ? lane(remaining - 1) : loop.makeSucceededVoidFuture() }
            }
            let start = monotonic()
            let cpuStart = processCPU()
            let all = (0..<lanes).map { index in
                loop.flatSubmit { lane(count / lanes + (index < count % lanes ? 1 : 0)) }
            }
            try EventLoopFuture.andAllSucceed(all, on: loop).wait()
            return "\(monotonic() - start) \(processCPU() - cpuStart)"
        case ("h2-seq", 2):
            let client = http2Client()
            let request = try HTTPClient.Request(url: base + "/bytes/1k", method: .GET)
            return try timed(count: words[1]) { try Self.checkHTTP2(try client.execute(request: request).wait()) }
        case ("h2-conc", 3):
            guard let lanes = Int(words[1]), lanes > 0, let count = Int(words[2]), count >= lanes else {
                throw PeerError("h2-conc needs LANES and COUNT >= LANES")
            }
            let client = http2Client()
            let request = try HTTPClient.Request(url: base + "/bytes/1k", method: .GET)
            let loop = group.next()
            func lane(_ remaining: Int) -> EventLoopFuture<Void> {
                client.execute(request: request, eventLoop: .delegate(on: loop)).flatMapThrowing(Self.checkHTTP2)
                    .flatMap { remaining > 1 ? lane(remaining - 1) : loop.makeSucceededVoidFuture() }
            }
            let start = monotonic()
            let cpuStart = processCPU()
            let all = (0..<lanes).map { index in
                loop.flatSubmit { lane(count / lanes + (index < count % lanes ? 1 : 0)) }
            }
            try EventLoopFuture.andAllSucceed(all, on: loop).wait()
            return "\(monotonic() - start) \(processCPU() - cpuStart)"
        case ("http-10m", 2):
            return try downloads(plainClient(poolLimit: 1), count: words[1], httpMajorVersion: 1)
        case ("h2-download", 2):
            return try downloads(http2Client(), count: words[1], httpMajorVersion: 2)
        case ("h2-connections", 1):
            guard let port = base.split(separator: ":").last.flatMap({ UInt16($0) }) else {
                throw PeerError("no port in \(base)")
            }
            return String(try tcpConnections(toPort: port))
        case ("file-down", 3):
            let client = plainClient(poolLimit: 1)
            let request = try HTTPClient.Request(url: base + String(words[2]), method: .GET)
            let sampler = HeapPeakSampler()
            let start = monotonic()
            let delegate = try FileDownloadDelegate(path: String(words[1]))
            let progress = try client.execute(request: request, delegate: delegate).wait()
            let elapsed = monotonic() - start
            let peak = sampler.stop()
            guard progress.head.status == .ok else { throw PeerError("file-down: \(progress.head.status)") }
            return "\(elapsed) \(peak)"
        case ("file-up", 3):
            let client = plainClient(poolLimit: 1)
            let path = String(words[1])
            let url = base + String(words[2])
            let sampler = HeapPeakSampler()
            let start = monotonic()
            let status = Box<Int>(0)
            try blocking {
                var request = HTTPClientRequest(url: url)
                request.method = .PUT
                let size = try FileSize.of(path)
                request.body = .stream(FileChunks(path: path), length: .known(Int64(size)))
                let response = try await client.execute(request, timeout: .seconds(120))
                status.value = Int(response.status.code)
            }
            let elapsed = monotonic() - start
            let peak = sampler.stop()
            guard (200..<300).contains(status.value) else { throw PeerError("file-up: status \(status.value)") }
            return "\(elapsed) \(peak)"
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

    /// COUNT sequential GETs of /bytes/10m through `client`, each body collected and checked:
    /// 200, 10 MiB, over HTTP/`httpMajorVersion`. The wall time and the process's CPU time in
    /// nanoseconds, then the heap's growth in bytes from the start to the first body's arrival.
    private func downloads(_ client: HTTPClient, count: Substring, httpMajorVersion: Int) throws -> String {
        guard let count = Int(count), count > 0 else { throw PeerError("needs a positive count") }
        let request = try HTTPClient.Request(url: base + "/bytes/10m", method: .GET)
        let start = monotonic()
        let cpuStart = processCPU()
        var growth: Int64 = 0
        let before = heapBytes()
        for index in 0..<count {
            let response = try client.execute(request: request).wait()
            if index == 0 { growth = Int64(heapBytes()) - Int64(before) }
            guard response.status == .ok, response.body?.readableBytes == 10 * 1_048_576,
                response.version.major == httpMajorVersion
            else {
                throw PeerError(
                    "GET /bytes/10m: \(response.status), \(response.body?.readableBytes ?? 0) bytes, \(response.version)"
                )
            }
        }
        return "\(monotonic() - start) \(processCPU() - cpuStart) \(max(0, growth))"
    }

    /// A plain-HTTP client with a pool of `poolLimit` connections (the same one on every call).
    func plainClient(poolLimit: Int) -> HTTPClient {
        if let client = plain[poolLimit] { return client }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: poolLimit)
        let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        plain[poolLimit] = client
        return client
    }

    /// The `http2` suite's client: TLS 1.3 trusting CA_FILE, `httpVersion = .automatic` (HTTP/2
    /// when ALPN selects `h2`), a pool of one connection (so the first requests, sent before
    /// ALPN has answered, do not open HTTP/1.1 connections of their own).
    func http2Client() -> HTTPClient {
        if let http2 { return http2 }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caFile)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        http2 = client
        return client
    }

    /// A response of the `http2` suite: 200, 1,024 body bytes, over HTTP/2.
    static func checkHTTP2(_ response: HTTPClient.Response) throws {
        guard response.status == .ok, response.body?.readableBytes == 1_024, response.version.major == 2 else {
            throw PeerError(
                "GET /bytes/1k: \(response.status), \(response.body?.readableBytes ?? 0) bytes, \(response.version)")
        }
    }

    /// Runs `body` COUNT times, timing each; wall and CPU ns, then p50, p99, p99.9 in ns.
    private func latencies(count: Substring, _ body: () throws -> Void) throws -> String {
        guard let count = Int(count), count > 0 else { throw PeerError("needs a positive count") }
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        let start = monotonic()
        let cpuStart = processCPU()
        for _ in 0..<count {
            let begin = monotonic()
            try body()
            samples.append(monotonic() - begin)
        }
        let wall = monotonic() - start
        let cpu = processCPU() - cpuStart
        samples.sort()
        func rank(_ fraction: Double) -> UInt64 {
            samples[min(samples.count - 1, max(0, Int((fraction * Double(samples.count)).rounded(.up)) - 1))]
        }
        return "\(wall) \(cpu) \(rank(0.5)) \(rank(0.99)) \(rank(0.999))"
    }

    func shutdown() {
        for client in [newConnection13, newConnection12, keepAlive] + (idle.map { [$0] } ?? []) + Array(plain.values)
            + (http2.map { [$0] } ?? [])
        {
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

/// Runs `body` on Swift's concurrency pool and blocks this (non-pool) thread until it ends.
func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
        do { try await body() } catch { failure.error = error }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw error }
}

/// The error of a `blocking` body, written before the semaphore is signalled and read after.
final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}

/// Bytes allocated from malloc now (every arena, mmapped blocks included).
func heapBytes() -> UInt64 { UInt64(peer_heap_bytes()) }

/// A value set on one thread and read on another after a wait.
final class Box<Value: Sendable>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Samples the heap every millisecond on a thread of its own until `stop()`; the peak growth.
final class HeapPeakSampler: @unchecked Sendable {
    private var running = true
    private var peak: UInt64
    private let baseline: UInt64
    private let lock = NIOLock()
    private let finished = DispatchSemaphore(value: 0)

    init() {
        baseline = heapBytes()
        peak = baseline
        DispatchQueue.global().async { [self] in
            while lock.withLock({ running }) {
                let now = heapBytes()
                lock.withLock { peak = Swift.max(peak, now) }
                usleep(1_000)
            }
            finished.signal()
        }
    }

    func stop() -> UInt64 {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { peak > baseline ? peak - baseline : 0 }
    }
}

/// This process's TCP connections whose peer's port is `port`: every open descriptor (listed in
/// /proc/self/fd) asked `getpeername`; those that are not connected sockets fail it.
func tcpConnections(toPort port: UInt16) throws -> Int {
    guard let directory = opendir("/proc/self/fd") else { throw PeerError("opendir /proc/self/fd: errno \(errno)") }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let descriptor = Int32(name) else { continue }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) == 0 }
        }
        guard connected else { continue }
        let peerPort: UInt16? =
            switch Int32(address.ss_family) {
            case AF_INET:
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
                }
            case AF_INET6:
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                }
            default: nil
            }
        if peerPort.map(UInt16.init(bigEndian:)) == port { count += 1 }
    }
    return count
}

/// A file's size.
enum FileSize {
    static func of(_ path: String) throws -> Int {
        var information = stat()
        guard stat(path, &information) == 0 else { throw PeerError("stat \(path): errno \(errno)") }
        return Int(information.st_size)
    }
}

/// A file's bytes as 64 KiB `ByteBuffer`s, read with `read(2)` as they are asked for.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String

    struct AsyncIterator: AsyncIteratorProtocol {
        let descriptor: Int32
        mutating func next() async throws -> ByteBuffer? {
            var buffer = ByteBufferAllocator().buffer(capacity: 64 * 1024)
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 64 * 1024) { raw in
                Swift.max(0, read(descriptor, raw.baseAddress, 64 * 1024))
            }
            if count == 0 {
                close(descriptor)
                return nil
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(descriptor: open(path, O_RDONLY))
    }
}

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
