// nghttpd (nghttp2's HTTP/2 server, from Debian) on 127.0.0.1, over TLS and in cleartext, for the
// HTTP/2 interop tests.
public import Foundation

/// Two running `nghttpd` processes serving the same generated files: `tlsPort` over TLS with
/// the test PKI's server certificate (ALPN `h2` only), `h2cPort` in cleartext (prior knowledge,
/// `--no-tls`). Both echo a request body back (`--echo-upload`), add the trailer
/// `x-wick-trailer: done` to every response with a body (`--trailer`), and allow
/// `maxConcurrentStreams` streams per connection. Files: `bytes/1k`, `bytes/64k` and
/// `bytes/8m`, `TestPayload.bytes` of those sizes.
public final class NghttpdServer: Sendable {
    /// The files under `bytes/` and their sizes.
    public static let byteFiles = [("1k", 1_024), ("64k", 65_536), ("8m", 8 << 20)]
    /// The trailer every response with a body ends with.
    public static let trailer = ("x-wick-trailer", "done")
    /// SETTINGS_MAX_CONCURRENT_STREAMS of both listeners.
    public static let maxConcurrentStreams = 64

    /// The TLS port on 127.0.0.1 (the certificate names localhost, 127.0.0.1 and ::1).
    public let tlsPort: Int
    /// The cleartext (prior-knowledge) port on 127.0.0.1.
    public let h2cPort: Int
    /// The nghttpd serving `tlsPort`.
    public let tlsProcess: ChildProcess
    /// The nghttpd serving `h2cPort`.
    public let h2cProcess: ChildProcess

    /// Writes the files into `directory/htdocs`, starts both listeners and waits until they
    /// accept.
    /// - Throws: `TestSupportError` if nghttpd is missing (Scripts/setup installs
    ///   nghttp2-server), fails to start or never accepts.
    public init(directory: URL, pki: TestPKI) throws {
        let documentRoot = directory.appendingPathComponent("htdocs")
        try FileManager.default.createDirectory(
            at: documentRoot.appendingPathComponent("bytes"), withIntermediateDirectories: true)
        for (name, size) in Self.byteFiles {
            try Data(TestPayload.bytes(count: size)).write(to: documentRoot.appendingPathComponent("bytes/\(name)"))
        }
        let ports = try LoopbackPort.free(count: 2)
        tlsPort = ports[0]
        h2cPort = ports[1]
        let common = [
            "--address=127.0.0.1", "--htdocs=\(documentRoot.path)", "--echo-upload",
            "--trailer=\(Self.trailer.0): \(Self.trailer.1)",
            "--max-concurrent-streams=\(Self.maxConcurrentStreams)",
        ]
        tlsProcess = try Self.launch(
            common + [String(tlsPort), pki.server.privateKey.path, pki.serverChain.path], port: tlsPort,
            directory: directory)
        do {
            h2cProcess = try Self.launch(common + ["--no-tls", String(h2cPort)], port: h2cPort, directory: directory)
        } catch {
            tlsProcess.stop()
            throw error
        }
    }

    private static func launch(_ arguments: [String], port: Int, directory: URL) throws -> ChildProcess {
        let log = directory.appendingPathComponent("nghttpd-\(port).log")
        let process = try ChildProcess(
            executable: "/usr/sbin/nghttpd", arguments: arguments, workingDirectory: directory, logFile: log)
        guard LoopbackPort.waitUntilAccepting(port, timeout: .seconds(10), stillRunning: { process.isRunning }) else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            process.stop()
            throw TestSupportError.serverNotReady("nghttpd on port \(port)", log: String(text.suffix(2_000)))
        }
        return process
    }

    /// Stops both listeners.
    public func stop() {
        h2cProcess.stop()
        tlsProcess.stop()
    }
}
