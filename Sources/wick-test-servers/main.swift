// wick-test-servers: starts nginx, httpbin, two microsocks and nghttpd for Scripts/test and Scripts/demo, writes their
// ports to a shell-sourceable file, and stops them on SIGTERM/SIGINT or when the watched
// process (the script that started it) is gone.
//
//   wick-test-servers --dir DIR --env-file FILE [--only nginx|httpbin|socks|nghttpd] [--watch-pid PID]
import Dispatch
import Foundation
import WickTestSupport

struct Options {
    var directory: URL?
    var environmentFile: URL?
    var selection: TestServers.Selection = .all
    var watchedPID: Int32?

    init(arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw UsageError(message: "\(argument) needs a value") }
            switch argument {
            case "--dir": directory = URL(fileURLWithPath: value)
            case "--env-file": environmentFile = URL(fileURLWithPath: value)
            case "--watch-pid": watchedPID = Int32(value)
            case "--only":
                switch value {
                case "nginx": selection = .nginx
                case "httpbin": selection = .httpbin
                case "socks": selection = .socks
                case "nghttpd": selection = .nghttpd
                default: throw UsageError(message: "--only takes nginx, httpbin, socks or nghttpd")
                }
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        guard directory != nil, environmentFile != nil else {
            throw UsageError(
                message:
                    "usage: wick-test-servers --dir DIR --env-file FILE [--only nginx|httpbin|socks|nghttpd] [--watch-pid PID]"
            )
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Blocks until SIGTERM, SIGINT or SIGHUP arrives, or until `pid` no longer exists.
///
/// Signals go to dispatch sources; they are ignored only now, after the servers started,
/// because an ignored disposition would be inherited by nginx and gunicorn across exec.
/// (A nonisolated function: closures made in top-level code would be main-actor isolated.)
func waitForStopRequest(watching pid: Int32?) {
    let done = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceProtocol] = []
    for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { done.signal() }
        source.resume()
        sources.append(source)
    }
    if let pid {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { if kill(pid, 0) != 0 && errno == ESRCH { done.signal() } }
        timer.resume()
        sources.append(timer)
    }
    done.wait()
    sources.forEach { $0.cancel() }
}

func shellQuoted(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

do {
    let options = try Options(arguments: CommandLine.arguments)
    let servers = try TestServers(directory: options.directory!, selection: options.selection)
    let lines = servers.environment.map { "export \($0.0)=\(shellQuoted($0.1))" }
    let temporary = options.environmentFile!.appendingPathExtension("partial")
    try (lines.joined(separator: "\n") + "\n").write(to: temporary, atomically: true, encoding: .utf8)
    guard rename(temporary.path, options.environmentFile!.path) == 0 else {
        throw UsageError(message: "cannot write \(options.environmentFile!.path): errno \(errno)")
    }
    print("wick-test-servers: ready (" + servers.environment.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + ")")
    fflush(nil)

    waitForStopRequest(watching: options.watchedPID)
    servers.stop()
    try? FileManager.default.removeItem(at: options.environmentFile!)
    print("wick-test-servers: stopped")
} catch {
    FileHandle.standardError.write(Data("wick-test-servers: \(error)\n".utf8))
    exit(1)
}
