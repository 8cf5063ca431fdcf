// The libcurl side of the concurrent workloads: one multi handle driving many easy handles, each
// re-added as soon as its transfer ends, over kept-alive HTTP/1.1 connections (the `requests`
// suite) or multiplexed on one HTTP/2 connection (the `http2` suite).
import CBenchCurl

/// `lanes` easy handles on one multi handle, GETting a URL; their connections stay in the multi
/// handle's cache between rounds.
final class CurlConcurrentClient {
    private let multi: UnsafeMutableRawPointer
    private var handles: [UnsafeMutableRawPointer] = []
    private var transfers: [UnsafeMutablePointer<bench_curl_transfer>] = []
    private let http2: Bool
    /// Connections libcurl opened for the transfers so far (`CURLINFO_NUM_CONNECTS`, summed).
    private(set) var connectionsOpened = 0

    /// Makes the handles (no transfer yet). With `http2CAFile` (an https URL and its trust
    /// root), the transfers speak HTTP/2 (`CURL_HTTP_VERSION_2TLS`) multiplexed on one
    /// connection: `CURLMOPT_PIPELINING` `CURLPIPE_MULTIPLEX`, `CURLMOPT_MAX_HOST_CONNECTIONS` 1
    /// and `CURLOPT_PIPEWAIT`, so the handles added before the connection is up wait to share it,
    /// and `CURLMOPT_MAX_CONCURRENT_STREAMS` `lanes` (libcurl's own limit is 100 by default; the
    /// server's SETTINGS_MAX_CONCURRENT_STREAMS still applies).
    /// - Throws: `BenchError` if libcurl cannot make a handle or refuses an option.
    init(lanes: Int, url: String, http2CAFile: String? = nil) throws {
        _ = CurlClient.globalInit
        guard let multi = curl_multi_init() else { throw BenchError("curl_multi_init failed") }
        self.multi = multi
        http2 = http2CAFile != nil
        _ = bench_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, lanes + 16)
        if http2 {
            try check(bench_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX), "PIPELINING")
            try check(bench_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1), "MAX_HOST_CONNECTIONS")
            try check(
                bench_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, lanes), "MAX_CONCURRENT_STREAMS")
        }
        for _ in 0..<lanes {
            guard let handle = curl_easy_init() else { throw BenchError("curl_easy_init failed") }
            handles.append(handle)
            let transfer = UnsafeMutablePointer<bench_curl_transfer>.allocate(capacity: 1)
            transfer.initialize(
                to: bench_curl_transfer(handle: handle, body_bytes: 0, session_reused: -1, collects: 0, collected: nil))
            transfers.append(transfer)
            _ = bench_curl_setopt_pointer(handle, CURLOPT_URL, url)
            _ = bench_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = bench_curl_set_body_writer(handle, transfer)
            if let http2CAFile {
                _ = bench_curl_setopt_pointer(handle, CURLOPT_CAINFO, http2CAFile)
                _ = bench_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
                _ = bench_curl_setopt_long(handle, CURLOPT_PIPEWAIT, 1)
            }
        }
    }

    deinit {
        for handle in handles { curl_easy_cleanup(handle) }
        curl_multi_cleanup(multi)
        for transfer in transfers { transfer.deallocate() }
    }

    private func check(_ code: CURLMcode, _ what: String) throws {
        guard code == CURLM_OK else { throw BenchError("curl_multi_setopt CURLMOPT_\(what): \(code)") }
    }

    /// `count` GETs, as many at once as there are handles; returns each one's latency in
    /// nanoseconds, from when its handle was added to when the loop saw it done.
    /// - Throws: `BenchError` if a transfer fails, does not answer 200 with 1,024 bytes, did not
    ///   speak HTTP/2 when asked to, or 60 s pass.
    @discardableResult
    func run(_ count: Int) throws -> [UInt64] {
        var started = 0
        var finished = 0
        var latencies: [UInt64] = []
        latencies.reserveCapacity(count)
        var startedAt = [UInt64](repeating: 0, count: handles.count)
        for (index, (handle, transfer)) in zip(handles, transfers).enumerated() where started < count {
            transfer.pointee.body_bytes = 0
            startedAt[index] = monotonicNanoseconds()
            curl_multi_add_handle(multi, handle)
            started += 1
        }
        var running: Int32 = 0
        let deadline = monotonicNanoseconds() + 60_000_000_000
        while finished < count {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { throw BenchError("curl_multi_perform failed") }
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                guard code == CURLE_OK else {
                    throw BenchError("libcurl concurrent GET: \(String(cString: curl_easy_strerror(code)))")
                }
                guard let index = handles.firstIndex(of: handle), transfers[index].pointee.body_bytes == 1_024 else {
                    throw BenchError("libcurl concurrent GET: a short body")
                }
                try checkFinished(handle)
                let now = monotonicNanoseconds()
                latencies.append(now - startedAt[index])
                finished += 1
                curl_multi_remove_handle(multi, handle)
                if started < count {
                    transfers[index].pointee.body_bytes = 0
                    startedAt[index] = now
                    curl_multi_add_handle(multi, handle)
                    started += 1
                }
            }
            guard monotonicNanoseconds() < deadline else { throw BenchError("libcurl concurrent GETs: 60 s passed") }
            if finished < count { curl_multi_poll(multi, nil, 0, 100, nil) }
        }
        return latencies
    }

    /// Checks a finished transfer's status (and protocol, for HTTP/2) and counts its new connections.
    private func checkFinished(_ handle: UnsafeMutableRawPointer) throws {
        var status = 0
        _ = bench_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard status == 200 else { throw BenchError("libcurl concurrent GET: status \(status)") }
        var connects = 0
        _ = bench_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        connectionsOpened += connects
        guard http2 else { return }
        var version = 0
        _ = bench_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        guard version == CURL_HTTP_VERSION_2_0 else {
            throw BenchError("libcurl concurrent GET: HTTP version \(version), not 2")
        }
    }
}
