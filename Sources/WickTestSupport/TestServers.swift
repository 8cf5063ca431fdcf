// The set of real servers one test run uses, started together and exported as environment.
public import Foundation

/// nginx (with its PKI), httpbin, two SOCKS5 proxies (microsocks, one demanding credentials)
/// and nghttpd (over TLS and h2c), started in one run directory.
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
        /// nghttpd over TLS (the PKI's server certificate) and in cleartext.
        public static let nghttpd = Selection(rawValue: 8)
        /// Everything.
        public static let all: Selection = [.nginx, .httpbin, .socks, .nghttpd]
    }

    /// The PKI (made when nginx or nghttpd is selected).
    public let pki: TestPKI?
    /// nginx, if selected.
    public let nginx: NginxServer?
    /// httpbin, if selected.
    public let httpbin: HTTPBinServer?
    /// The SOCKS5 proxy without authentication, if selected.
    public let socks: SOCKSServer?
    /// The SOCKS5 proxy demanding `SOCKSServer.username` and `.password`, if selected.
    public let authenticatingSOCKS: SOCKSServer?
    /// nghttpd, if selected.
    public let nghttpd: NghttpdServer?

    /// Starts the selected servers under `directory`. A server that fails to start stops the
    /// ones already started before the error is thrown.
    /// - Throws: `TestSupportError` from the launchers.
    public init(directory: URL, selection: Selection = .all) throws {
        var pki: TestPKI?
        var nginx: NginxServer?
        if !selection.isDisjoint(with: [.nginx, .nghttpd]) {
            pki = try TestPKI.generate(in: directory.appendingPathComponent("pki"))
        }
        if selection.contains(.nginx) {
            nginx = try NginxServer(directory: directory.appendingPathComponent("nginx"), pki: pki!)
        }
        var httpbin: HTTPBinServer?
        var socks: SOCKSServer?
        var nghttpd: NghttpdServer?
        do {
            nghttpd =
                selection.contains(.nghttpd)
                ? try NghttpdServer(directory: directory.appendingPathComponent("nghttpd"), pki: pki!) : nil
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
            nghttpd?.stop()
            nginx?.stop()
            throw error
        }
        self.httpbin = httpbin
        self.socks = socks
        self.nghttpd = nghttpd
        self.pki = pki
        self.nginx = nginx
    }

    /// The variables `TestEnvironment` reads, for the servers that are running.
    public var environment: [(String, String)] {
        typealias V = TestEnvironment.Variable
        var pairs: [(String, String)] = []
        if let pki { pairs.append((V.pkiDirectory, pki.directory.path)) }
        if let nginx {
            pairs += [
                (V.nginxHTTPPort, String(nginx.httpPort)),
                (V.nginxHTTPSPort, String(nginx.httpsPort)),
                (V.nginxMutualTLSPort, String(nginx.mutualTLSPort)),
                (V.nginxHTTP2Port, String(nginx.http2Port)),
                (V.nginxH2CPort, String(nginx.h2cPort)),
                (V.nginxUnixSocket, nginx.httpUnixSocket.path),
                (V.nginxTLSUnixSocket, nginx.httpsUnixSocket.path),
                (V.nginxRoot, nginx.documentRoot.path),
                (V.nginxPID, String(nginx.process.pid)),
            ]
        }
        if let nghttpd {
            pairs += [
                (V.nghttpdTLSPort, String(nghttpd.tlsPort)), (V.nghttpdTLSPID, String(nghttpd.tlsProcess.pid)),
                (V.nghttpdH2CPort, String(nghttpd.h2cPort)), (V.nghttpdH2CPID, String(nghttpd.h2cProcess.pid)),
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
        nghttpd?.stop()
        nginx?.stop()
    }
}
