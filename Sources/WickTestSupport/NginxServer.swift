// nginx on 127.0.0.1 for integration tests: plain HTTP and HTTPS with the test PKI, keep-alive,
// static files of several sizes, gzip, a chunked endpoint, PUT uploads and connection counts.
public import Foundation

/// A running nginx (one worker) serving the test document root on two loopback ports, and on
/// two Unix domain sockets in its directory (`http.sock` plain, `https.sock` TLS with the same
/// certificate).
///
/// Paths, on every listener:
/// - `/bytes/{0,1k,64k,1m,10m}`: `TestPayload.bytes` of 0, 1,024, 65,536, 1 MiB and 10 MiB
///   (`application/octet-stream`, never gzipped, `Content-Length` framing).
/// - `/text/1m.txt`: 1 MiB of `TestPayload.text` (`text/plain`; gzipped when asked).
/// - `/chunked/1m.txt`: the same text sent with `Transfer-Encoding: chunked`.
/// - `/br/...` and `/zstd/...`: precompressed files sent with `Content-Encoding: br` and `zstd`
///   (Debian's nginx has no brotli or zstd module, so the files are compressed here and labelled
///   by `add_header`): `1m.txt` (the 1 MiB text), `truncated.txt` (its first half) and `bomb.txt`
///   (64 MiB of zeros).
/// - `/keepalive-1s/...` and `/close/...`: the `/bytes/` files with `Keep-Alive: timeout=1`
///   and with `Connection: close`.
/// - `/upload/...`: `PUT` stores a file (any size), `DELETE` removes it.
/// - `/post/...`: `POST` (any body size, read and dropped) answers 200 with the `/bytes/` file.
/// - `/max-age-60/...`: the `/bytes/` files with `Cache-Control: max-age=60` (and `Expires`).
/// - `/no-cache/...`: the `/bytes/` files with `Cache-Control: no-cache` (a cache validates them
///   every time; nginx answers a matching `If-None-Match` or `If-Modified-Since` with 304).
/// - `/stale-while-revalidate/...`: the `/bytes/` files with `Cache-Control: max-age=0,
///   stale-while-revalidate=600` (stale at once, then usable stale for ten minutes while a
///   cache revalidates it; 304s as for `/no-cache/`).
/// - `/hsts/...`: the `/bytes/` files with `Strict-Transport-Security: max-age=600`.
/// - `/slow/...`: the `/bytes/` files sent at 256 KiB/s (`limit_rate`), for requests that
///   must stay open while others run.
/// - `/redirect/bytes-1k`: 302 to `/bytes/1k`.
/// - `/status`: nginx's stub_status (active connections, accepts, requests).
/// - `/tls/protocol`: the connection's TLS version as nginx names it (`TLSv1.3`; empty over
///   plain HTTP).
///
/// Two listeners speak HTTP/2 and serve the same paths: `http2Port` over TLS (ALPN `h2` and
/// `http/1.1`, nginx's default of 128 concurrent streams) and `h2cPort` in cleartext with prior
/// knowledge only (no HTTP/1.1), allowing 8 concurrent streams per connection; the second also
/// listens on the Unix socket `h2c.sock` beside `http.sock`.
///
/// Another listener, `mutualTLSPort`, requires a client certificate the test PKI issued and
/// answers every path with 200 and the client's subject (`CN=Wick Test Client`), or with 400
/// when the client sent none.
///
/// Every response echoes the request's `X-Request-Id` field, when it has one, as `X-Request-Id`,
/// and every request is logged to `accessLog`, one line each: that id (or `-`), the status, the
/// request's length in bytes (line, fields and body), the body bytes sent, the seconds nginx
/// spent on it, and its request line as sent (so a POST answered through `error_page` still
/// shows as a POST).
public final class NginxServer: Sendable {
    /// The static files under `/bytes/`, by name and size.
    public static let byteFiles: [(name: String, size: Int)] = [
        ("0", 0), ("1k", 1_024), ("64k", 65_536), ("1m", 1 << 20), ("10m", 10 << 20),
    ]

    /// The plain-HTTP port.
    public let httpPort: Int
    /// The HTTPS port (TLS 1.2 and 1.3, the PKI's `server` leaf and intermediate).
    public let httpsPort: Int
    /// The HTTPS port that requires a client certificate (mutual TLS).
    public let mutualTLSPort: Int
    /// The HTTPS port that offers HTTP/2 (ALPN `h2`, then `http/1.1`).
    public let http2Port: Int
    /// The cleartext HTTP/2 port (prior knowledge, 8 concurrent streams per connection).
    public let h2cPort: Int
    /// The Unix domain socket of the plain-HTTP server (`<directory>/http.sock`).
    public let httpUnixSocket: URL
    /// The Unix domain socket of the HTTPS server (`<directory>/https.sock`).
    public let httpsUnixSocket: URL
    /// The document root.
    public let documentRoot: URL
    /// The access log: `<X-Request-Id or -> <status> <request length> <body bytes sent>
    /// <seconds> <request line>` per request.
    public let accessLog: URL
    /// The nginx master process.
    public let process: ChildProcess

    /// Writes the configuration and files into `directory`, starts nginx and waits until both
    /// ports accept.
    /// - Throws: `TestSupportError` if nginx is missing, fails to start or never accepts.
    public init(directory: URL, pki: TestPKI) throws {
        let fileManager = FileManager.default
        documentRoot = directory.appendingPathComponent("www")
        accessLog = directory.appendingPathComponent("access.log")
        for folder in ["www/bytes", "www/text", "www/chunked", "www/upload", "www/br", "www/zstd", "tmp"] {
            try fileManager.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for (name, size) in Self.byteFiles {
            try Data(TestPayload.bytes(count: size)).write(to: documentRoot.appendingPathComponent("bytes/\(name)"))
        }
        let text = Data(TestPayload.text(count: 1 << 20))
        try text.write(to: documentRoot.appendingPathComponent("text/1m.txt"))
        try text.write(to: documentRoot.appendingPathComponent("chunked/1m.txt"))
        try Data("Wick test server\n".utf8).write(to: documentRoot.appendingPathComponent("index.html"))
        try Self.writeCodedFiles(text: Array(text), into: documentRoot)

        let ports = try LoopbackPort.free(count: 5)
        httpPort = ports[0]
        httpsPort = ports[1]
        mutualTLSPort = ports[2]
        http2Port = ports[3]
        h2cPort = ports[4]
        httpUnixSocket = directory.appendingPathComponent("http.sock")
        httpsUnixSocket = directory.appendingPathComponent("https.sock")
        // Sockets left in a reused directory by an earlier nginx make its binds fail; it holds
        // the TCP ports open while it retries for a few seconds, so the readiness check below
        // would pass and nginx exit just after.
        for name in Self.unixSocketNames {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        let configuration = directory.appendingPathComponent("nginx.conf")
        try Self.configuration(
            directory: directory, httpPort: httpPort, httpsPort: httpsPort, mutualTLSPort: mutualTLSPort,
            http2Port: http2Port, h2cPort: h2cPort, pki: pki
        ).write(to: configuration, atomically: true, encoding: .utf8)
        process = try ChildProcess(
            executable: "/usr/sbin/nginx",
            arguments: [
                "-p", directory.path, "-c", configuration.path, "-e",
                directory.appendingPathComponent("error.log").path,
            ],
            workingDirectory: directory, logFile: directory.appendingPathComponent("nginx.out"))
        let process = self.process
        for port in [httpPort, httpsPort, mutualTLSPort, http2Port, h2cPort] {
            guard LoopbackPort.waitUntilAccepting(port, timeout: .seconds(15), stillRunning: { process.isRunning })
            else {
                let log =
                    (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                process.stop()
                throw TestSupportError.serverNotReady("nginx on port \(port)", log: String(log.suffix(2_000)))
            }
        }
    }

    /// Writes `br/` and `zstd/`: the text compressed, its first half, and 64 MiB of zeros.
    private static func writeCodedFiles(text: [UInt8], into root: URL) throws {
        let megabyte = [UInt8](repeating: 0, count: 1 << 20)
        let bombMegabytes = 64
        var brotliBomb: [UInt8] = []
        var zstdBomb: [UInt8] = []
        let brotli = TestBrotliEncoder(quality: 1)
        let zstd = TestZstdEncoder(level: 1)
        for index in 0..<bombMegabytes {
            brotli.compress(megabyte, finish: index == bombMegabytes - 1) { brotliBomb += $0 }
            zstd.compress(megabyte, finish: index == bombMegabytes - 1) { zstdBomb += $0 }
        }
        for (folder, coded, bomb) in [
            ("br", TestBrotliEncoder.compress(text), brotliBomb), ("zstd", TestZstdEncoder.compress(text), zstdBomb),
        ] {
            let directory = root.appendingPathComponent(folder)
            try Data(coded).write(to: directory.appendingPathComponent("1m.txt"))
            try Data(coded.prefix(coded.count / 2)).write(to: directory.appendingPathComponent("truncated.txt"))
            try Data(bomb).write(to: directory.appendingPathComponent("bomb.txt"))
        }
    }

    /// The Unix sockets the configuration listens on, in `directory`.
    static let unixSocketNames = ["http.sock", "https.sock", "h2c.sock"]

    /// Stops nginx (SIGTERM, then SIGKILL after the grace period).
    public func stop() {
        process.stop()
    }

    private static func configuration(
        directory: URL, httpPort: Int, httpsPort: Int, mutualTLSPort: Int, http2Port: Int, h2cPort: Int, pki: TestPKI
    ) -> String {
        let dir = directory.path
        let www = "\(dir)/www"
        // Workers run as the user nginx starts as; as root they would drop to nobody, who
        // cannot read a private temporary directory.
        let user = geteuid() == 0 ? "user root;" : ""
        let locations = """
            root \(www);
            location = /status { stub_status; }
            location = /tls/protocol { default_type text/plain; return 200 "$ssl_protocol"; }
            location /chunked/ { sub_filter_types *; sub_filter 'wick' 'wick'; sub_filter_once off; }
            location /keepalive-1s/ { keepalive_timeout 1s 1; alias \(www)/bytes/; }
            location /close/ { keepalive_timeout 0; alias \(www)/bytes/; }
            location /br/ { gzip off; add_header Content-Encoding br; add_header X-Request-Id $http_x_request_id always; }
            location /zstd/ { gzip off; add_header Content-Encoding zstd; add_header X-Request-Id $http_x_request_id always; }
            location /upload/ { dav_methods PUT DELETE; create_full_put_path on; client_max_body_size 0; }
            location /post/ { client_max_body_size 0; error_page 405 =200 $uri; alias \(www)/bytes/; }
            location /slow/ { limit_rate 256k; alias \(www)/bytes/; }
            location = /redirect/bytes-1k { return 302 /bytes/1k; }
            # `wick-bench openapi`: the generated client's echoQuery, answered as httpbin's /get
            # would answer `?greeting=hello`, from a fixed body.
            location = /openapi/get {
                default_type application/json;
                return 200 '{"args":{"greeting":"hello"},"url":"http://127.0.0.1/openapi/get?greeting=hello"}';
            }
            location /max-age-60/ { expires 60s; alias \(www)/bytes/; }
            location /no-cache/ {
                add_header Cache-Control no-cache; add_header X-Request-Id $http_x_request_id always; alias \(www)/bytes/;
            }
            location /stale-while-revalidate/ {
                add_header Cache-Control "max-age=0, stale-while-revalidate=600"; alias \(www)/bytes/;
            }
            location /hsts/ {
                add_header Strict-Transport-Security max-age=600 always; add_header X-Request-Id $http_x_request_id always;
                alias \(www)/bytes/;
            }
            add_header X-Request-Id $http_x_request_id always;
            """
        return """
            daemon off;
            master_process on;
            worker_processes 1;
            \(user)
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log warn;
            events { worker_connections 4096; }
            http {
                log_format wick '$http_x_request_id $status $request_length $body_bytes_sent $request_time $request';
                access_log \(dir)/access.log wick;
                client_body_temp_path \(dir)/tmp/body;
                proxy_temp_path \(dir)/tmp/proxy;
                fastcgi_temp_path \(dir)/tmp/fastcgi;
                uwsgi_temp_path \(dir)/tmp/uwsgi;
                scgi_temp_path \(dir)/tmp/scgi;
                types { text/plain txt; application/json json; text/html html; }
                default_type application/octet-stream;
                sendfile on;
                tcp_nodelay on;
                keepalive_timeout 65s;
                keepalive_requests 1000000;
                gzip on;
                gzip_types text/plain application/json;
                gzip_min_length 0;
                gzip_vary on;
                server {
                    listen 127.0.0.1:\(httpPort);
                    listen unix:\(dir)/http.sock;
                    \(locations)
                }
                server {
                    listen 127.0.0.1:\(httpsPort) ssl;
                    listen unix:\(dir)/https.sock ssl;
                    ssl_certificate \(pki.serverChain.path);
                    ssl_certificate_key \(pki.server.privateKey.path);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    ssl_session_cache shared:WICK:1m;
                    ssl_session_tickets on;
                    \(locations)
                }
                server {
                    listen 127.0.0.1:\(http2Port) ssl http2;
                    ssl_certificate \(pki.serverChain.path);
                    ssl_certificate_key \(pki.server.privateKey.path);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    \(locations)
                }
                server {
                    listen 127.0.0.1:\(h2cPort) http2;
                    listen unix:\(dir)/h2c.sock http2;
                    http2_max_concurrent_streams 8;
                    # nginx 1.22 sets TCP_NODELAY on h2 connections only after TLS, so over
                    # cleartext the sendfile(2) of a small DATA frame's payload waits (Nagle)
                    # for the ACK of the HEADERS segment, which the client delays 40 ms:
                    # 23 req/s for h2load as for any client. Without sendfile the frame goes
                    # out in one write (h2load: 9,575 req/s).
                    sendfile off;
                    \(locations)
                }
                server {
                    listen 127.0.0.1:\(mutualTLSPort) ssl;
                    ssl_certificate \(pki.serverChain.path);
                    ssl_certificate_key \(pki.server.privateKey.path);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    ssl_verify_client on;
                    ssl_client_certificate \(pki.root.certificate.path);
                    ssl_verify_depth 2;
                    location / { default_type text/plain; return 200 "$ssl_client_s_dn"; }
                }
            }
            """
    }
}
