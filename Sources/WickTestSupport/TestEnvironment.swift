// How a test finds the real servers that Scripts/test started: environment variables.
public import Foundation

/// The real servers of this test run, as Scripts/test (through `wick-test-servers`) exported
/// them. Locally a test whose server is missing is skipped with a pointer to Scripts/test;
/// under `CI=true` it runs and fails, so CI can never pass by skipping.
///
/// Use: `@Test(.enabled(if: TestEnvironment.wantsNginx)) func x() throws { let nginx = try TestEnvironment.nginx() }`
public enum TestEnvironment {
    /// The variables `TestServers.environment` exports.
    public enum Variable {
        /// The test PKI's directory.
        public static let pkiDirectory = "WICK_PKI_DIR"
        /// nginx's plain-HTTP port.
        public static let nginxHTTPPort = "WICK_NGINX_HTTP_PORT"
        /// nginx's HTTPS port.
        public static let nginxHTTPSPort = "WICK_NGINX_HTTPS_PORT"
        /// nginx's mutual-TLS port (a client certificate required).
        public static let nginxMutualTLSPort = "WICK_NGINX_MTLS_PORT"
        /// nginx's HTTP/2 port over TLS.
        public static let nginxHTTP2Port = "WICK_NGINX_HTTP2_PORT"
        /// nginx's cleartext HTTP/2 (prior knowledge) port.
        public static let nginxH2CPort = "WICK_NGINX_H2C_PORT"
        /// nginx's plain-HTTP Unix domain socket path.
        public static let nginxUnixSocket = "WICK_NGINX_UNIX_SOCKET"
        /// nginx's HTTPS Unix domain socket path.
        public static let nginxTLSUnixSocket = "WICK_NGINX_TLS_UNIX_SOCKET"
        /// nginx's document root.
        public static let nginxRoot = "WICK_NGINX_ROOT"
        /// nginx master's PID.
        public static let nginxPID = "WICK_NGINX_PID"
        /// httpbin's port.
        public static let httpbinPort = "WICK_HTTPBIN_PORT"
        /// gunicorn master's PID.
        public static let httpbinPID = "WICK_HTTPBIN_PID"
        /// The SOCKS5 proxy's port (no authentication).
        public static let socksPort = "WICK_SOCKS_PORT"
        /// That proxy's PID.
        public static let socksPID = "WICK_SOCKS_PID"
        /// The port of the SOCKS5 proxy that demands `SOCKSServer.username` and `.password`.
        public static let authenticatingSOCKSPort = "WICK_SOCKS_AUTH_PORT"
        /// That proxy's PID.
        public static let authenticatingSOCKSPID = "WICK_SOCKS_AUTH_PID"
        /// nghttpd's TLS port.
        public static let nghttpdTLSPort = "WICK_NGHTTPD_TLS_PORT"
        /// That nghttpd's PID.
        public static let nghttpdTLSPID = "WICK_NGHTTPD_TLS_PID"
        /// nghttpd's cleartext (prior-knowledge HTTP/2) port.
        public static let nghttpdH2CPort = "WICK_NGHTTPD_H2C_PORT"
        /// That nghttpd's PID.
        public static let nghttpdH2CPID = "WICK_NGHTTPD_H2C_PID"
    }

    /// nginx as a test sees it.
    public struct Nginx: Sendable {
        /// The plain-HTTP port on 127.0.0.1.
        public let httpPort: Int
        /// The HTTPS port on 127.0.0.1.
        public let httpsPort: Int
        /// The HTTPS port on 127.0.0.1 that requires the PKI's `client` certificate.
        public let mutualTLSPort: Int
        /// The HTTPS port on 127.0.0.1 that offers HTTP/2 (ALPN `h2`, then `http/1.1`).
        public let http2Port: Int
        /// The cleartext HTTP/2 port on 127.0.0.1 (prior knowledge; 8 streams per connection).
        public let h2cPort: Int
        /// The plain-HTTP server's Unix domain socket path.
        public let unixSocket: String
        /// The cleartext HTTP/2 server's Unix domain socket path (`h2c.sock` beside `unixSocket`).
        public var h2cUnixSocket: String {
            URL(fileURLWithPath: unixSocket).deletingLastPathComponent().appendingPathComponent("h2c.sock").path
        }
        /// The HTTPS server's Unix domain socket path.
        public let tlsUnixSocket: String
        /// The document root (the files `NginxServer` documents).
        public let documentRoot: URL
        /// The PKI whose root signs nginx's certificate.
        public let pki: TestPKI

        /// `http://127.0.0.1:port`.
        public var httpBase: String { "http://127.0.0.1:\(httpPort)" }
        /// `https://localhost:port` (the certificate names localhost, 127.0.0.1 and ::1).
        public var httpsBase: String { "https://localhost:\(httpsPort)" }
    }

    /// httpbin as a test sees it.
    public struct HTTPBin: Sendable {
        /// The port on 127.0.0.1.
        public let port: Int
        /// `http://127.0.0.1:port`.
        public var base: String { "http://127.0.0.1:\(port)" }
    }

    /// The SOCKS5 proxies as a test sees them.
    public struct SOCKS: Sendable {
        /// The port on 127.0.0.1 of the proxy without authentication.
        public let port: Int
        /// The port on 127.0.0.1 of the proxy that demands `username` and `password`.
        public let authenticatingPort: Int
        /// The user name the authenticating proxy accepts.
        public var username: String { SOCKSServer.username }
        /// The password the authenticating proxy accepts.
        public var password: String { SOCKSServer.password }
    }

    /// nghttpd (`NghttpdServer`) as a test sees it.
    public struct Nghttpd: Sendable {
        /// The TLS port on 127.0.0.1 (ALPN `h2` only).
        public let tlsPort: Int
        /// The cleartext prior-knowledge HTTP/2 port on 127.0.0.1.
        public let h2cPort: Int
        /// The PKI whose root signs nghttpd's certificate.
        public let pki: TestPKI

        /// `https://localhost:tlsPort`.
        public var tlsBase: String { "https://localhost:\(tlsPort)" }
        /// `http://127.0.0.1:h2cPort`.
        public var h2cBase: String { "http://127.0.0.1:\(h2cPort)" }
    }

    /// Whether this is a CI run (`CI=true`), where a missing server is a failure.
    public static var isCI: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Whether nginx tests should run: it was started, or this is CI (where they must run).
    public static var wantsNginx: Bool { isCI || value(Variable.nginxHTTPPort) != nil }

    /// Whether httpbin tests should run: it was started, or this is CI.
    public static var wantsHTTPBin: Bool { isCI || value(Variable.httpbinPort) != nil }

    /// Whether SOCKS tests should run: the proxies were started, or this is CI.
    public static var wantsSOCKS: Bool { isCI || value(Variable.socksPort) != nil }

    /// Whether nghttpd tests should run: it was started, or this is CI.
    public static var wantsNghttpd: Bool { isCI || value(Variable.nghttpdTLSPort) != nil }

    /// The running nghttpd listeners.
    /// - Throws: `TestSupportError.serverNotConfigured` if Scripts/test did not start them.
    public static func nghttpd() throws -> Nghttpd {
        Nghttpd(
            tlsPort: try port(Variable.nghttpdTLSPort, server: "nghttpd"),
            h2cPort: try port(Variable.nghttpdH2CPort, server: "nghttpd"),
            pki: TestPKI(existingIn: URL(fileURLWithPath: try require(Variable.pkiDirectory, server: "nghttpd"))))
    }

    /// The running SOCKS5 proxies.
    /// - Throws: `TestSupportError.serverNotConfigured` if Scripts/test did not start them.
    public static func socks() throws -> SOCKS {
        SOCKS(
            port: try port(Variable.socksPort, server: "microsocks"),
            authenticatingPort: try port(Variable.authenticatingSOCKSPort, server: "microsocks"))
    }

    /// The running nginx.
    /// - Throws: `TestSupportError.serverNotConfigured` if Scripts/test did not start it.
    public static func nginx() throws -> Nginx {
        Nginx(
            httpPort: try port(Variable.nginxHTTPPort, server: "nginx"),
            httpsPort: try port(Variable.nginxHTTPSPort, server: "nginx"),
            mutualTLSPort: try port(Variable.nginxMutualTLSPort, server: "nginx"),
            http2Port: try port(Variable.nginxHTTP2Port, server: "nginx"),
            h2cPort: try port(Variable.nginxH2CPort, server: "nginx"),
            unixSocket: try require(Variable.nginxUnixSocket, server: "nginx"),
            tlsUnixSocket: try require(Variable.nginxTLSUnixSocket, server: "nginx"),
            documentRoot: URL(fileURLWithPath: try require(Variable.nginxRoot, server: "nginx")),
            pki: TestPKI(existingIn: URL(fileURLWithPath: try require(Variable.pkiDirectory, server: "nginx"))))
    }

    /// The running httpbin.
    /// - Throws: `TestSupportError.serverNotConfigured` if Scripts/test did not start it.
    public static func httpbin() throws -> HTTPBin {
        HTTPBin(port: try port(Variable.httpbinPort, server: "httpbin"))
    }

    private static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func require(_ name: String, server: String) throws -> String {
        guard let value = value(name) else { throw TestSupportError.serverNotConfigured(server, variable: name) }
        return value
    }

    private static func port(_ name: String, server: String) throws -> Int {
        guard let port = Int(try require(name, server: server)), (1...65_535).contains(port) else {
            throw TestSupportError.serverNotConfigured(server, variable: name)
        }
        return port
    }
}
