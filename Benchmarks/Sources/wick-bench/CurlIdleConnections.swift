// The libcurl side of the idle-memory workload: many TLS connections left open in a multi
// handle's connection cache.
import CBenchCurl

/// `count` HTTPS connections opened by concurrent GETs on one multi handle, whose connection cache
/// (`CURLMOPT_MAXCONNECTS`) keeps them all open once the easy handles are gone.
final class CurlIdleConnections {
    private let multi: UnsafeMutableRawPointer

    /// Opens the connections: `count` easy handles GET `url` at once (keep-alive, TLS 1.3), then
    /// are removed and freed, leaving their connections idle in the cache.
    /// - Throws: `BenchError` if libcurl fails or a transfer does not end with 200.
    init(count: Int, url: String, caFile: String) throws {
        _ = CurlClient.globalInit
        guard let multi = curl_multi_init() else { throw BenchError("curl_multi_init failed") }
        self.multi = multi
        _ = bench_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, count + 16)
        var transfers: [UnsafeMutablePointer<bench_curl_transfer>] = []
        var handles: [UnsafeMutableRawPointer] = []
        defer {
            for handle in handles {
                curl_multi_remove_handle(multi, handle)
                curl_easy_cleanup(handle)
            }
            for transfer in transfers { transfer.deallocate() }
        }
        for _ in 0..<count {
            guard let handle = curl_easy_init() else { throw BenchError("curl_easy_init failed") }
            handles.append(handle)
            let transfer = UnsafeMutablePointer<bench_curl_transfer>.allocate(capacity: 1)
            transfer.initialize(
                to: bench_curl_transfer(handle: handle, body_bytes: 0, session_reused: -1, collects: 0, collected: nil))
            transfers.append(transfer)
            _ = bench_curl_setopt_pointer(handle, CURLOPT_URL, url)
            _ = bench_curl_setopt_pointer(handle, CURLOPT_CAINFO, caFile)
            _ = bench_curl_setopt_long(
                handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_3 | CURL_SSLVERSION_MAX_TLSv1_3))
            _ = bench_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = bench_curl_set_body_writer(handle, transfer)
            curl_multi_add_handle(multi, handle)
        }
        var running: Int32 = 1
        let deadline = monotonicNanoseconds() + 30_000_000_000
        while running > 0 {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { throw BenchError("curl_multi_perform failed") }
            guard monotonicNanoseconds() < deadline else { throw BenchError("libcurl idle connections: 30 s passed") }
            if running > 0 { curl_multi_poll(multi, nil, 0, 100, nil) }
        }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE else { continue }
            let code = message.pointee.data.result
            guard code == CURLE_OK else {
                throw BenchError("libcurl idle connection: \(String(cString: curl_easy_strerror(code)))")
            }
        }
        for transfer in transfers where transfer.pointee.body_bytes != 1_024 {
            throw BenchError("libcurl idle connection: \(transfer.pointee.body_bytes) body bytes")
        }
    }

    deinit {
        curl_multi_cleanup(multi)
    }
}
