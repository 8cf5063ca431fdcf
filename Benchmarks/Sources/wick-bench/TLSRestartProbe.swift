// A restarted client's first connections, with and without `tls.sessionFile`: client and nginx
// CPU per connection while a new Session opens a burst of TLS connections to one origin.
import CBenchSupport
import Foundation
import Wick
import WickTestSupport

/// `wick-bench tls-restart [ROUNDS] [CONNECTIONS]`: each round, for each mode (alternating), a
/// new `Session` (a restart: new loops, new TLS context) prewarms CONNECTIONS connections to
/// nginx's HTTPS port at once and waits until they are all idle. "file": the configuration's
/// `tls.sessionFile` holds a session from a previous Session (the round's warm-up), so every
/// connection can resume; "none": memory only, so the burst pays full handshakes (a session
/// stored by the first to finish comes too late for the others). Prints medians of client CPU
/// (this process, every thread), nginx worker CPU and wall time per connection.
enum TLSRestartProbe {
    struct Figures {
        var clientMicroseconds: [Double] = []
        var serverMicroseconds: [Double] = []
        var wallMicroseconds: [Double] = []
    }

    static func run(rounds: Int, connections: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-restart-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx, let pki = servers.pki else { throw BenchError("nginx did not start") }
        let worker = NginxProcesses.processes(master: nginx.process.pid).dropFirst().first
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            _ = try NginxProcesses.pin(master: nginx.process.pid, cpu: 0)
            _ = bench_pin_current_thread(1)
        }
        let roots = try Certificate.chain(pemEncoded: String(contentsOf: pki.root.certificate, encoding: .utf8))
        let url = "https://127.0.0.1:\(nginx.httpsPort)/bytes/1k"
        let sessionFile = directory.appendingPathComponent("tls-sessions").path

        func configuration(file: String?) -> Session.Configuration {
            var configuration = Session.Configuration()
            configuration.trustRoots = .certificates(roots)
            configuration.proxy = .none
            configuration.maximumConnectionsPerHost = connections
            configuration.tls.sessionFile = file
            return configuration
        }

        var results: [String: Figures] = ["none": Figures(), "file": Figures()]
        for round in 0..<(rounds + 1) {
            // The previous run of the daemon: one request, then gone; its sessions are in the file.
            try? FileManager.default.removeItem(atPath: sessionFile)
            let previousConfiguration = configuration(file: sessionFile)
            try blocking {
                let previous = Session(configuration: previousConfiguration)
                _ = try await previous.request(url).serializingData().value
                await previous.shutdown()
            }
            // The debounced write lands within a second whether or not the context is gone yet.
            Thread.sleep(forTimeInterval: 1.2)
            guard FileManager.default.fileExists(atPath: sessionFile) else { throw BenchError("no session file written") }
            for mode in round.isMultiple(of: 2) ? ["none", "file"] : ["file", "none"] {
                let session = Session(configuration: configuration(file: mode == "file" ? sessionFile : nil))
                let client = processCPUNanoseconds()
                let server = worker.flatMap(NginxProcesses.cpuNanoseconds) ?? 0
                let wall = monotonicNanoseconds()
                try session.prewarm(url, connections: connections)
                let opened = try blockingResult {
                    for _ in 0..<2_000 {
                        if await session.poolStatistics().total.idle >= connections { return true }
                        try await Task.sleep(for: .milliseconds(1))
                    }
                    return false
                }
                let elapsed = monotonicNanoseconds() - wall
                let clientCPU = processCPUNanoseconds() - client
                let serverCPU = (worker.flatMap(NginxProcesses.cpuNanoseconds) ?? 0) - server
                try blocking { await session.shutdown() }
                guard opened else { throw BenchError("\(mode): \(connections) connections did not open in 2 s") }
                guard round > 0 else { continue }  // the first round warms up
                let perConnection = { (nanoseconds: UInt64) in Double(nanoseconds) / 1_000 / Double(connections) }
                results[mode]!.clientMicroseconds.append(perConnection(clientCPU))
                results[mode]!.serverMicroseconds.append(perConnection(serverCPU))
                results[mode]!.wallMicroseconds.append(perConnection(elapsed))
            }
        }
        print("a restarted Session prewarming \(connections) TLS 1.3 connections to nginx; medians of \(rounds) rounds, per connection:")
        print("mode   client CPU µs   nginx CPU µs   wall µs")
        for mode in ["none", "file"] {
            let figures = results[mode]!
            print(
                mode.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + String(format: "%13.0f   %12.0f   %7.0f", median(figures.clientMicroseconds),
                        median(figures.serverMicroseconds), median(figures.wallMicroseconds)))
        }
        let none = results["none"]!
        let file = results["file"]!
        print(
            String(
                format: "with the session file: client CPU %.2f×, nginx CPU %.2f× of memory-only",
                median(file.clientMicroseconds) / median(none.clientMicroseconds),
                median(file.serverMicroseconds) / median(none.serverMicroseconds)))
    }
}
