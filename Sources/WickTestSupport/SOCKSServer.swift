// microsocks, a SOCKS5 server from Debian, on 127.0.0.1 for the SOCKS integration tests.
public import Foundation

/// A running `microsocks` (SOCKS5, RFC 1928) on a free loopback port: without authentication,
/// or demanding `username` and `password` (RFC 1929). It resolves names itself (`socks5h`) and
/// answers a connect it cannot make with the matching reply code (5 for a refused port).
public final class SOCKSServer: Sendable {
    /// The user name the authenticating server accepts.
    public static let username = "wick"
    /// The password the authenticating server accepts.
    public static let password = "s0cks-pass"

    /// The port it listens on at 127.0.0.1.
    public let port: Int
    /// The microsocks process.
    public let process: ChildProcess

    /// Starts microsocks, demanding `SOCKSServer.username` and `.password` when
    /// `requiresAuthentication`, and waits until it accepts.
    /// - Throws: `TestSupportError` if microsocks is missing (Scripts/setup installs it) or
    ///   never accepts.
    public init(directory: URL, requiresAuthentication: Bool) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        let log = directory.appendingPathComponent("microsocks-\(port).log")
        var arguments = ["-i", "127.0.0.1", "-p", String(port)]
        if requiresAuthentication { arguments += ["-u", Self.username, "-P", Self.password] }
        process = try ChildProcess(
            executable: "/usr/bin/microsocks", arguments: arguments, workingDirectory: directory, logFile: log)
        let process = self.process
        guard LoopbackPort.waitUntilAccepting(port, timeout: .seconds(10), stillRunning: { process.isRunning }) else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            process.stop()
            throw TestSupportError.serverNotReady("microsocks on port \(port)", log: String(text.suffix(2_000)))
        }
    }

    /// Stops microsocks.
    public func stop() {
        process.stop()
    }
}
