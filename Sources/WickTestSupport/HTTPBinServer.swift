// httpbin (the HTTP semantics Alamofire's own tests rely on) under gunicorn on 127.0.0.1.
public import Foundation

/// A running httpbin under gunicorn (threaded workers, so `/delay` calls overlap).
public final class HTTPBinServer: Sendable {
    /// The port it listens on at 127.0.0.1.
    public let port: Int
    /// The gunicorn master process.
    public let process: ChildProcess

    /// Starts gunicorn with the httpbin app and waits until it accepts.
    /// - Throws: `TestSupportError` if python3, gunicorn or httpbin is missing or never accepts.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        let log = directory.appendingPathComponent("httpbin.log")
        process = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: [
                "python3", "-m", "gunicorn", "--bind", "127.0.0.1:\(port)", "--workers", "2",
                "--worker-class", "gthread", "--threads", "16", "--graceful-timeout", "2",
                // gunicorn closes an idle keep-alive connection after 2 s by default; a test
                // slowed by 1,500 others then races a POST against that close and reads a
                // reset (which a client must not retry). nginx's 75 s keeps that race out.
                "--keep-alive", "75",
                "--log-level", "warning", "httpbin:app",
            ],
            workingDirectory: directory, logFile: log)
        let process = self.process
        guard LoopbackPort.waitUntilAccepting(port, timeout: .seconds(30), stillRunning: { process.isRunning }) else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            process.stop()
            throw TestSupportError.serverNotReady("httpbin on port \(port)", log: String(text.suffix(2_000)))
        }
    }

    /// Stops gunicorn and its workers.
    public func stop() {
        process.stop()
    }
}
