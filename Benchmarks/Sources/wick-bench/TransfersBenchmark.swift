// The `transfers` suite: a large file downloaded to disk and uploaded from disk through Wick's
// `DownloadRequest` and `UploadRequest`, beside libcurl and URLSession in the same run, with the
// heap each client holds at its peak.
import CBenchCurl
import CBenchSupport
import Dispatch
import Foundation
import FoundationNetworking
import Wick
import WickTestSupport

/// Starts nginx (`TestServers`), puts a file of `fileBytes` in its document root, pins nginx to
/// CPU 0 and the clients to CPU 1, and runs each transfer in alternating rounds.
struct TransfersBenchmark {
    /// Rounds per workload; the median is reported.
    var rounds = 5
    /// The transferred file's size.
    var fileBytes = 256 << 20
    /// The async-http-client peer's executable, or nil to leave it out.
    var peersExecutable: String?

    /// One client's round: wall time and the heap's peak growth over it.
    struct Round {
        var wallNanoseconds: UInt64
        var peakHeapGrowth: Int
    }

    func run() throws -> ResultTable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wick-bench-transfers-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory.appendingPathComponent("servers"), selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx else { throw BenchError("nginx did not start") }
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            _ = try NginxProcesses.pin(master: nginx.process.pid, cpu: 0)
            _ = bench_pin_current_thread(1)
        }
        // The payload: real bytes (not sparse), so that nginx and the clients move every one.
        let source = directory.appendingPathComponent("payload.bin")
        try Self.writeFile(source, bytes: fileBytes)
        let served = nginx.documentRoot.appendingPathComponent("bytes/transfer.bin")
        try? FileManager.default.removeItem(at: served)
        try FileManager.default.copyItem(at: source, to: served)
        defer { try? FileManager.default.removeItem(at: served) }
        let base = "http://127.0.0.1:\(nginx.httpPort)"
        let downloadURL = "\(base)/bytes/transfer.bin"
        let target = directory.appendingPathComponent("downloaded.bin")

        let session = Session()
        defer { try? blocking { await session.shutdown() } }
        let urlSession = URLSession(configuration: .ephemeral)
        defer { urlSession.invalidateAndCancel() }

        let downloads: [(String, () throws -> Void)] = [
            ("Wick", { try Self.wickDownload(session, downloadURL, to: target, bytes: fileBytes) }),
            ("libcurl", { try Self.curlDownload(downloadURL, to: target, bytes: fileBytes) }),
            ("URLSession", { try Self.urlSessionDownload(urlSession, downloadURL, bytes: fileBytes) }),
        ]
        let uploads: [(String, () throws -> Void)] = [
            ("Wick", { try Self.wickUpload(session, source, to: "\(base)/upload/wick.bin") }),
            ("libcurl", { try Self.curlUpload(source, to: "\(base)/upload/curl.bin", bytes: fileBytes) }),
            ("URLSession", { try Self.urlSessionUpload(urlSession, source, to: "\(base)/upload/urlsession.bin") }),
        ]
        let peer = try peersExecutable.map { try PeerProcess(executable: $0, baseURL: base, caFile: "/dev/null") }
        defer { peer?.stop() }
        let ahcTarget = directory.appendingPathComponent("downloaded-ahc.bin")
        let downloaded = try alternate(
            downloads, peer: peer, command: "file-down \(ahcTarget.path) /bytes/transfer.bin"
        ) {
            try? FileManager.default.removeItem(at: ahcTarget)
        }
        let uploaded = try alternate(uploads, peer: peer, command: "file-up \(source.path) /upload/ahc.bin") {}

        var table = ResultTable(
            suite: "transfers",
            title:
                "A \(fileBytes >> 20) MiB file downloaded to a file and uploaded from one (higher is better, except memory)",
            columns: [
                "workload", "Wick", "libcurl", "URLSession", "AHC", "Wick ÷ libcurl", "Wick ÷ URLSession", "Wick ÷ AHC",
                "peak heap growth, MiB (Wick / libcurl / URLSession / AHC)",
            ])
        table.rows.append(row("download to a file, MiB/s", downloaded))
        table.rows.append(row("upload from a file (PUT), MiB/s", uploaded))
        table.notes = [
            "Files (nginx's document root, the uploaded source, every client's download target) are in \(directory.deletingLastPathComponent().path) (`TMPDIR`), \(Self.isTmpfs(directory.deletingLastPathComponent()) ? "a tmpfs: memory, so the rows measure the clients, not a disk" : "on disk: the disk's speed and the page cache make the rows noisy; `TMPDIR=/dev/shm` measures the clients alone").",
            "nginx 1.22 (one worker, `sendfile` on) from `TestServers` pinned to CPU 0, the clients to CPU 1; \(rounds) rounds, each client in turn, after one warm-up transfer each; medians. The file holds deterministic non-zero bytes; nginx stores uploads through its dav module.",
            "Wick: `Session.download(_:to:)` into a file (written on a queue with 2 MiB of backpressure) and `Session.upload(_ fileURL:to:method: .put)` (read in 64 KiB pieces, `Expect: 100-continue`). libcurl: one easy handle per transfer writing to a `FILE *` (libcurl's default write function) and reading one (`CURLOPT_UPLOAD`, `CURLOPT_INFILESIZE_LARGE`). URLSession: `downloadTask(with:)` (its file removed after each round) and `uploadTask(with:fromFile:)`.",
            "Peak heap growth: malloc's in-use bytes (`mallinfo2`) sampled every millisecond by a thread of its own during the transfer, the maximum less the value before it. Wick, libcurl and URLSession run inside wick-bench; async-http-client 1.37 runs in its own process (`wick-bench-peers`, one event loop thread), sampled there the same way: `FileDownloadDelegate` for the download, the async/await API with the file streamed in 64 KiB `ByteBuffer`s of known length for the upload.",
        ]
        return table
    }

    /// Runs every client `rounds` times in turn (after a warm-up each), timing each transfer and
    /// sampling the heap's peak; then the peer's `command` (its own timing and peak), and
    /// `cleanUp` after it.
    private func alternate(
        _ clients: [(String, () throws -> Void)], peer: PeerProcess?, command: String, cleanUp: () -> Void
    ) throws -> [[Round]] {
        for (_, transfer) in clients { try transfer() }
        if let peer {
            _ = try peer.send(command)
            cleanUp()
        }
        var results = [[Round]](repeating: [], count: clients.count + 1)
        for _ in 0..<rounds {
            for (index, (_, transfer)) in clients.enumerated() {
                let sampler = HeapPeakSampler()
                let start = monotonicNanoseconds()
                try transfer()
                let elapsed = monotonicNanoseconds() - start
                results[index].append(Round(wallNanoseconds: elapsed, peakHeapGrowth: sampler.stop()))
            }
            if let peer {
                let values = try peer.send(command)
                guard values.count == 2 else { throw BenchError("async-http-client peer: no figures for \(command)") }
                results[clients.count].append(Round(wallNanoseconds: values[0], peakHeapGrowth: Int(values[1])))
                cleanUp()
            }
        }
        return results
    }

    private func row(_ name: String, _ results: [[Round]]) -> [String] {
        let mebibytes = Double(fileBytes) / 1_048_576
        let rates = results.map { rounds in rounds.map { mebibytes * 1e9 / Double($0.wallNanoseconds) } }
        let rate: (Int) -> String = { index in rates[index].isEmpty ? "—" : Format.grouped(Int(median(rates[index]))) }
        let ratio: (Int) -> String = { peer in
            rates[peer].isEmpty ? "—" : Format.ratio(median(zip(rates[0], rates[peer]).map { $0 / $1 }))
        }
        let peaks = results.map { rounds in
            rounds.isEmpty ? "—" : Format.fixed(median(rounds.map { Double($0.peakHeapGrowth) / 1_048_576 }), 1)
        }
        return [
            name, rate(0), rate(1), rate(2), rate(3), ratio(1), ratio(2), ratio(3), peaks.joined(separator: " / "),
        ]
    }

    // MARK: - The clients

    static func wickDownload(_ session: Session, _ url: String, to target: URL, bytes: Int) throws {
        let saved = try blockingResult { () async throws -> URL in
            try await session.download(url, to: { _, _ in (target, [.removePreviousFile]) })
                .serializingDownloadedFileURL().value
        }
        guard let size = try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int, size == bytes
        else { throw BenchError("Wick download: wrong size") }
    }

    static func wickUpload(_ session: Session, _ source: URL, to url: String) throws {
        let status = try blockingResult { () async throws -> Int in
            let response = await session.upload(source, to: url, method: .put)
                .serializingData(emptyResponseCodes: [201, 204]).response
            return response.response?.statusCode ?? 0
        }
        guard status == 201 || status == 204 else { throw BenchError("Wick upload: status \(status)") }
    }

    static func curlDownload(_ url: String, to target: URL, bytes: Int) throws {
        guard let file = fopen(target.path, "w") else { throw BenchError("fopen \(target.path)") }
        defer { fclose(file) }
        try curlTransfer(url) { handle in
            _ = bench_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, UnsafeRawPointer(file))
        }
        fflush(file)
        guard ftell(file) == bytes else { throw BenchError("libcurl download: wrong size") }
    }

    static func curlUpload(_ source: URL, to url: String, bytes: Int) throws {
        guard let file = fopen(source.path, "r") else { throw BenchError("fopen \(source.path)") }
        defer { fclose(file) }
        try curlTransfer(url) { handle in
            _ = bench_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
            _ = bench_curl_setopt_pointer(handle, CURLOPT_READDATA, UnsafeRawPointer(file))
            _ = bench_curl_setopt_offset(handle, CURLOPT_INFILESIZE_LARGE, Int64(bytes))
        }
    }

    /// One transfer on a fresh easy handle configured by `configure`.
    private static func curlTransfer(_ url: String, configure: (UnsafeMutableRawPointer) -> Void) throws {
        guard let handle = curl_easy_init() else { throw BenchError("curl_easy_init failed") }
        defer { curl_easy_cleanup(handle) }
        _ = url.withCString { bench_curl_setopt_pointer(handle, CURLOPT_URL, $0) }
        configure(handle)
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))") }
        var status = 0
        _ = bench_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard (200..<300).contains(status) else { throw BenchError("libcurl: status \(status)") }
    }

    static func urlSessionDownload(_ session: URLSession, _ url: String, bytes: Int) throws {
        let done = DispatchSemaphore(value: 0)
        let size = LockedValue<Int>(-1)
        session.downloadTask(with: URL(string: url)!) { location, _, _ in
            if let location {
                size.set((try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? Int) ?? -1)
                try? FileManager.default.removeItem(at: location)
            }
            done.signal()
        }.resume()
        done.wait()
        guard size.get() == bytes else { throw BenchError("URLSession download: \(size.get()) bytes") }
    }

    static func urlSessionUpload(_ session: URLSession, _ source: URL, to url: String) throws {
        let done = DispatchSemaphore(value: 0)
        let status = LockedValue<Int>(0)
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "PUT"
        session.uploadTask(with: request, fromFile: source) { _, response, _ in
            status.set((response as? HTTPURLResponse)?.statusCode ?? 0)
            done.signal()
        }.resume()
        done.wait()
        guard (200..<300).contains(status.get()) else { throw BenchError("URLSession upload: status \(status.get())") }
    }

    /// Whether `url`'s file system is a tmpfs (memory, not a disk): the type of the longest mount
    /// point in /proc/mounts that holds it.
    static func isTmpfs(_ url: URL) -> Bool {
        let path = url.resolvingSymlinksInPath().path
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
        let holders = mounts.split(separator: "\n").compactMap { line -> (point: String, type: Substring)? in
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { return nil }
            let point = String(fields[1])
            let holds = path == point || path.hasPrefix(point == "/" ? "/" : point + "/")
            return holds ? (point, fields[2]) : nil
        }
        return holders.max { $0.point.count < $1.point.count }?.type == "tmpfs"
    }

    /// A file of `bytes` deterministic non-zero bytes, written in 1 MiB pieces.
    static func writeFile(_ url: URL, bytes: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchError("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let piece = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for _ in 0..<(bytes >> 20) { try handle.write(contentsOf: piece) }
    }
}

/// Samples malloc's in-use bytes every millisecond on a thread of its own until `stop()`.
final class HeapPeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var peak: Int
    private let baseline: Int
    private let finished = DispatchSemaphore(value: 0)

    init() {
        baseline = RequestsBenchmark.heapBytes()
        peak = baseline
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let now = RequestsBenchmark.heapBytes()
                lock.withLock { peak = max(peak, now) }
                usleep(1_000)
            }
            finished.signal()
        }
    }

    /// Stops sampling; the peak growth over the baseline.
    func stop() -> Int {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { max(0, peak - baseline) }
    }
}

/// A value handed from a callback thread to a waiting one.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value { lock.withLock { value } }
}
