// The libcurl side of the `requests` suite's concurrent workload: one multi handle driving many
// easy handles, each re-added as soon as its transfer ends, over kept-alive connections.
import CBenchCurl

/// `lanes` easy handles on one multi handle, GETting a plain-HTTP URL; their connections stay in
/// the multi handle's cache between rounds.
final class CurlConcurrentClient {
    private let multi: UnsafeMutableRawPointer
    private var handles: [UnsafeMutableRawPointer] = []
    private var transfers: [UnsafeMutablePointer<bench_curl_transfer>] = []

    /// Makes the handles (no transfer yet).
    /// - Throws: `BenchError` if libcurl cannot make a handle.
    init(lanes: Int, url: String) throws {
        _ = CurlClient.globalInit
        guard let multi = curl_multi_init() else { throw BenchError("curl_multi_init failed") }
        self.multi = multi
        _ = bench_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, lanes + 16)
        for _ in 0..<lanes {
            guard let handle = curl_easy_init() else { throw BenchError("curl_easy_init failed") }
            handles.append(handle)
            let transfer = UnsafeMutablePointer<bench_curl_transfer>.allocate(capacity: 1)
            transfer.initialize(to: bench_curl_transfer(handle: handle, body_bytes: 0, session_reused: -1))
            transfers.append(transfer)
            _ = bench_curl_setopt_pointer(handle, CURLOPT_URL, url)
            _ = bench_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = bench_curl_set_discarding_writer(handle, transfer)
        }
    }

    deinit {
        for handle in handles { curl_easy_cleanup(handle) }
        curl_multi_cleanup(multi)
        for transfer in transfers { transfer.deallocate() }
    }

    /// `count` GETs, as many at once as there are handles.
    /// - Throws: `BenchError` if a transfer fails, does not bring 1,024 bytes, or 60 s pass.
    func run(_ count: Int) throws {
        var started = 0
        var finished = 0
        for (handle, transfer) in zip(handles, transfers) where started < count {
            transfer.pointee.body_bytes = 0
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
                finished += 1
                curl_multi_remove_handle(multi, handle)
                if started < count {
                    transfers[index].pointee.body_bytes = 0
                    curl_multi_add_handle(multi, handle)
                    started += 1
                }
            }
            guard monotonicNanoseconds() < deadline else { throw BenchError("libcurl concurrent GETs: 60 s passed") }
            if finished < count { curl_multi_poll(multi, nil, 0, 100, nil) }
        }
    }
}
