// The libcurl peer of the `tls` suite: one easy handle doing GETs over HTTPS, with a new connection
// per request or one kept alive, its session-ID cache on or off.
import CBenchCurl

#if canImport(Glibc)
    import Glibc
#endif

/// A libcurl easy handle set up for one workload and reused across its requests (libcurl keeps its
/// session-ID cache, and its loaded CA file, in the handle).
final class CurlClient {
    /// How the client connects.
    struct Setup {
        /// `https://127.0.0.1:PORT/bytes/1k`.
        var url: String
        /// The test root: the only anchor.
        var caFile: String
        /// 12 or 13: the exact TLS version (`CURLOPT_SSLVERSION` minimum and maximum).
        var tlsVersion: Int
        /// A new connection per request (`CURLOPT_FRESH_CONNECT`, `CURLOPT_FORBID_REUSE` and a
        /// `Connection: close` header), or one kept alive.
        var newConnectionPerRequest: Bool
        /// `CURLOPT_SSL_SESSIONID_CACHE`: resume sessions on new connections.
        var sessionCache: Bool
        /// The body length every response must have.
        var bodyBytes = 1_024
        /// HTTP/2 through ALPN (`CURL_HTTP_VERSION_2TLS`); every response must then have come
        /// over HTTP/2 (`CURLINFO_HTTP_VERSION`).
        var http2 = false
        /// Keep each body in memory as a libcurl user who wants it does (the write callback of
        /// libcurl's getinmemory.c example: `realloc` by what arrived, then copy), freed after
        /// the GET; else count and discard it.
        var collectsBody = false
    }

    private let handle: UnsafeMutableRawPointer
    private let headers: UnsafeMutablePointer<curl_slist>?
    /// Where the write callback records each transfer; its address is given to libcurl.
    private let transfer: UnsafeMutablePointer<bench_curl_transfer>
    private let bodyBytes: Int
    private let http2: Bool

    init(_ setup: Setup) throws {
        Self.globalInit
        guard let handle = curl_easy_init() else { throw BenchError("curl_easy_init failed") }
        self.handle = handle
        bodyBytes = setup.bodyBytes
        http2 = setup.http2
        transfer = .allocate(capacity: 1)
        transfer.initialize(
            to: bench_curl_transfer(
                handle: handle, body_bytes: 0, session_reused: -1, collects: setup.collectsBody ? 1 : 0, collected: nil)
        )
        headers = setup.newConnectionPerRequest ? curl_slist_append(nil, "Connection: close") : nil
        let version =
            setup.tlsVersion == 12
            ? CURL_SSLVERSION_TLSv1_2 | CURL_SSLVERSION_MAX_TLSv1_2
            : CURL_SSLVERSION_TLSv1_3 | CURL_SSLVERSION_MAX_TLSv1_3
        try check(bench_curl_setopt_pointer(handle, CURLOPT_URL, setup.url), "CURLOPT_URL")
        try check(bench_curl_setopt_pointer(handle, CURLOPT_CAINFO, setup.caFile), "CURLOPT_CAINFO")
        try check(bench_curl_setopt_long(handle, CURLOPT_SSLVERSION, Int(version)), "CURLOPT_SSLVERSION")
        try check(
            bench_curl_setopt_long(handle, CURLOPT_SSL_SESSIONID_CACHE, setup.sessionCache ? 1 : 0),
            "CURLOPT_SSL_SESSIONID_CACHE")
        try check(bench_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        if setup.http2 {
            try check(
                bench_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS), "CURLOPT_HTTP_VERSION")
        }
        if setup.newConnectionPerRequest {
            try check(bench_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1), "CURLOPT_FRESH_CONNECT")
            try check(bench_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1), "CURLOPT_FORBID_REUSE")
            try check(bench_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers), "CURLOPT_HTTPHEADER")
        }
        try check(bench_curl_set_body_writer(handle, transfer), "CURLOPT_WRITEFUNCTION")
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headers)
        transfer.deinitialize(count: 1)
        transfer.deallocate()
    }

    /// One GET; returns whether OpenSSL reported the session as resumed.
    /// - Throws: `BenchError` with libcurl's message, a status other than 200, a short body, or
    ///   (with `http2`) a response that did not come over HTTP/2.
    func get() throws -> Bool {
        transfer.pointee.body_bytes = 0
        transfer.pointee.session_reused = -1
        defer {
            free(transfer.pointee.collected)
            transfer.pointee.collected = nil
        }
        try check(curl_easy_perform(handle), "GET")
        var status = 0
        _ = bench_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard status == 200, transfer.pointee.body_bytes == bodyBytes else {
            throw BenchError("libcurl GET: status \(status), \(transfer.pointee.body_bytes) body bytes")
        }
        if http2 {
            var version = 0
            _ = bench_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
            guard version == CURL_HTTP_VERSION_2_0 else {
                throw BenchError("libcurl GET: HTTP version \(version), not 2")
            }
        }
        return transfer.pointee.session_reused == 1
    }

    private func check(_ code: CURLcode, _ what: String) throws {
        guard code == CURLE_OK else {
            throw BenchError("libcurl \(what): \(String(cString: curl_easy_strerror(code)))")
        }
    }

    /// `curl_global_init`, once per process.
    static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// libcurl's version string (`libcurl/7.88.1 OpenSSL/3.0.x ...`).
    static var version: String { String(cString: curl_version()) }
}
