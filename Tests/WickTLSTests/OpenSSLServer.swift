// `openssl s_server` as the peer a test needs: a real TLS stack set up to be what Wick must refuse.
import Foundation
import Testing
import WickTLS
import WickTestSupport

/// An `openssl s_server` on 127.0.0.1 serving a fixture identity with extra arguments (a
/// cipher list, a protocol version), stopped when released. Everything that blocks (the start,
/// the blocking-socket handshakes) runs on a thread of its own (`onOwnThread`).
final class OpenSSLServer: Sendable {
    let port: Int
    private let process: ChildProcess
    private let directory: URL

    /// Starts the server and waits (up to 10 s) until it accepts.
    /// - Throws: `TestSupportError.launchFailed` with the server's log if it never accepts.
    static func start(certificate: TestPKI.Identity, chain: TestPKI.Identity, arguments: [String]) async throws
        -> OpenSSLServer
    {
        try await onOwnThread { try OpenSSLServer(certificate: certificate, chain: chain, arguments: arguments) }
    }

    private init(certificate: TestPKI.Identity, chain: TestPKI.Identity, arguments: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-s-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        process = try ChildProcess(
            executable: "/usr/bin/openssl",
            arguments: [
                "s_server", "-4", "-accept", "127.0.0.1:\(port)", "-cert", certificate.certificate.path,
                "-key", certificate.privateKey.path, "-cert_chain", chain.certificate.path, "-quiet",
            ] + arguments,
            workingDirectory: directory, logFile: directory.appendingPathComponent("s_server.log"))
        let process = process
        guard LoopbackPort.waitUntilAccepting(port, timeout: .seconds(10), stillRunning: { process.isRunning }) else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("s_server.log"), encoding: .utf8)) ?? ""
            throw TestSupportError.launchFailed("openssl s_server", reason: log)
        }
    }

    deinit {
        process.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client handshake against this server with `context`, for `localhost`, then `body`
    /// with the engine.
    /// - Throws: the handshake's `TLSError`, a socket error, or what `body` throws.
    func handshake<T: Sendable>(_ context: TLSContext, then body: @escaping @Sendable (TLSEngine) throws -> T)
        async throws -> T
    {
        let port = port
        return try await onOwnThread {
            let connection = try LoopbackConnection(port: port)
            let engine = try TLSEngine(context: context, serverHostname: "localhost", port: port)
            try connection.handshake(engine)
            return try body(engine)
        }
    }
}
