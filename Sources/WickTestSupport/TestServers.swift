// The set of real servers one test run uses, started together and exported as environment.
public import Foundation

/// nginx (with its PKI), httpbin and two SOCKS5 proxies (microsocks, one demanding
/// credentials), started in one run directory.
public final class TestServers: Sendable {
    /// Which servers to start.
    public struct Selection: OptionSet, Sendable {
        /// Bit set.
        public let rawValue: Int
        /// Creates a selection from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// nginx and its PKI.
        public static let nginx = Selection(rawValue: 1)
        /// httpbin under gunicorn.
        public static let httpbin = Selection(rawValue: 2)
        /// Two microsocks SOCKS5 proxies: one open, one demanding credentials.
        public static let socks = Selection(rawValue: 4)
        /// Everything.
        public static let all: Selection = [.nginx, .httpbin, .socks]
    }

    /// The PKI (made when nginx is selected).
    public let pki: TestPKI?
    /// nginx, if selected.
    public let nginx: NginxServer?
    /// httpbin, if selected.
    public let httpbin: HTTPBinServer?
    /// The SOCKS5 proxy without authentication, if selected.
    public let socks: SOCKSServer?
    /// The SOCKS5 proxy demanding `SOCKSServer.username` and `.password`, if selected.
    public let authenticatingSOCKS: SOCKSServer?

    /// Starts the selected servers under `directory`. A server that fails to start stops the
    /// ones already started before the error is thrown.
    /// - Throws: `TestSupportError` from the launchers.
    public init(directory: URL, selection: Selection = .all) throws {
        var pki: TestPKI?
        var nginx: NginxServer?
        if selection.contains(.nginx) {
            pki = try TestPKI.generate(in: directory.appendingPathComponent("pki"))
            nginx = try NginxServer(directory: directory.appendingPathComponent("nginx"), pki: pki!)
        }
        var httpbin: HTTPBinServer?
        var socks: SOCKSServer?
        do {
            httpbin =
                selection.contains(.httpbin)
                ? try HTTPBinServer(directory: directory.appendingPathComponent("httpbin")) : nil
            if selection.contains(.socks) {
                let socksDirectory = directory.appendingPathComponent("socks")
                socks = try SOCKSServer(directory: socksDirectory, requiresAuthentication: false)
                authenticatingSOCKS = try SOCKSServer(directory: socksDirectory, requiresAuthentication: true)
            } else {
                authenticatingSOCKS = nil
            }
        } catch {
            socks?.stop()
            httpbin?.stop()
            nginx?.stop()
            throw error
        }
        self.httpbin = httpbin
        self.socks = socks
        self.pki = pki
        self.nginx = nginx
    }

    /// The variables `TestEnvironment` reads, for the servers that are running.
    public var environment: [(String, String)] {
        typealias V = TestEnvironment.Variable
        var pairs: [(String, String)] = []
        if let pki, let nginx {
            pairs += [
                (V.pkiDirectory, pki.directory.path),
                (V.nginxHTTPPort, String(nginx.httpPort)),
                (V.nginxHTTPSPort, String(nginx.httpsPort)),
                (V.nginxMutualTLSPort, String(nginx.mutualTLSPort)),
                (V.nginxUnixSocket, nginx.httpUnixSocket.path),
                (V.nginxTLSUnixSocket, nginx.httpsUnixSocket.path),
                (V.nginxRoot, nginx.documentRoot.path),
                (V.nginxPID, String(nginx.process.pid)),
            ]
        }
        if let httpbin {
            pairs += [(V.httpbinPort, String(httpbin.port)), (V.httpbinPID, String(httpbin.process.pid))]
        }
        if let socks, let authenticatingSOCKS {
            pairs += [
                (V.socksPort, String(socks.port)), (V.socksPID, String(socks.process.pid)),
                (V.authenticatingSOCKSPort, String(authenticatingSOCKS.port)),
                (V.authenticatingSOCKSPID, String(authenticatingSOCKS.process.pid)),
            ]
        }
        return pairs
    }

    /// Stops every server that was started.
    public func stop() {
        authenticatingSOCKS?.stop()
        socks?.stop()
        httpbin?.stop()
        nginx?.stop()
    }
}
