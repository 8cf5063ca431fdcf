// What `wick bench` is asked to do: the URL, how many in flight, how long, at what rate, over
// which HTTP version and trust.
import FoundationEssentials

/// The options of `wick bench URL [-c N] [--connections N] [-n N | -d DURATION] [--rate R]
/// [-H 'Name: value']... [-m SECONDS] [--busy-poll DURATION] [--http1.1 | --http2 |
/// --http2-prior-knowledge] [--cacert FILE] [--capath DIR] [-k] [--json]`, a load generator on
/// the same `Session` an embedding daemon uses.
public struct LoadOptions: Sendable {
    /// The URL every request gets.
    public var url: String
    /// `-c`: requests in flight at once (default 16): over HTTP/1.1 each on a connection of its
    /// own; over HTTP/2 each on a stream, as h2load's `-m`, on as few connections as the pool
    /// opens (a second only when every stream of the first is taken).
    public var concurrency = 16
    /// `--connections`: the most connections the pool opens to the URL's origin; nil (the
    /// default) for `concurrency`. Fewer than `-c` over HTTP/1.1 makes requests wait for a
    /// connection in the pool, as a daemon's small pool would.
    public var connections: Int?

    /// The most connections the pool opens: `--connections`, else `-c`.
    public var connectionLimit: Int { connections ?? concurrency }
    /// `-n`: the requests to send in all; nil with `-d` (default 10,000 without either).
    public var requests: Int?
    /// `-d`: how long to send for (`30s`, `500ms`, `2m`, or seconds); nil with `-n`.
    public var duration: Duration?
    /// `--rate`: requests per second, an open model: each request has its own start time and
    /// its latency counts from then, so a stall is not hidden by requests that wait behind it
    /// (coordinated omission corrected); nil sends each request as the previous one ends.
    public var rate: Double?
    /// `-H`: header fields sent with every request.
    public var headers: [(name: String, value: String)] = []
    /// `-m`: each request's own timeout, in seconds (default 30).
    public var timeout: Double = 30
    /// `--json`: the report as one JSON object.
    public var json = false
    /// `--busy-poll`: the session's `busyPollDuration` (its loop, and a request waiting for its
    /// response, poll this long before they sleep); nil (the default) never polls.
    public var busyPoll: Duration?
    /// The options `wick bench` shares with `wick`'s curl mode, read and applied to the session
    /// the same way: `--http2` (the default: ALPN `h2` preferred over TLS), `--http1.1`,
    /// `--http2-prior-knowledge` (h2c), `--cacert`, `--capath` and `-k`/`--insecure`.
    public var curlSettings = TransferOptions()

    /// `wick bench`'s switches that are curl's, with curl's meaning.
    static let curlSwitches: [String: CurlOption] = [
        "--http1.1": .http1_1, "--http2": .http2, "--http2-prior-knowledge": .http2PriorKnowledge, "-k": .insecure,
        "--insecure": .insecure,
    ]

    /// The usage `wick bench` prints when its arguments are wrong.
    public static let usage = """
        Usage: wick bench URL [-c IN_FLIGHT] [--connections N] [-n REQUESTS | -d DURATION]
                              [--rate PER_SECOND] [-H "Name: value"]... [-m SECONDS]
                              [--busy-poll DURATION] [--http1.1 | --http2 | --http2-prior-knowledge]
                              [--cacert FILE] [--capath DIR] [-k] [--json]
          -c  requests in flight at once (default 16): connections over HTTP/1.1, streams over HTTP/2
          --connections  the most connections the pool opens (default: -c)
          -n  requests in all (default 10000)             -d  how long: 30s, 500ms, 2m (instead of -n)
          --rate  an open model at this many per second   -H  a header field for every request
          -m  each request's timeout (default 30 s)       --json  the report as one JSON object
          --busy-poll  poll this long (50us, 1ms) before sleeping: lower latency, a busy core
          --http2  offer h2 in TLS's ALPN                 --http2-prior-knowledge  h2c on http URLs
          --cacert, --capath, -k  trust, as curl's

        """

    /// Options from `wick bench`'s arguments (without `bench`).
    /// - Throws: `CommandFailure` (2) naming what is wrong: an unknown option, a missing or
    ///   malformed value, no URL, or `-n` with `-d`.
    public init(arguments: [String]) throws(CommandFailure) {
        var url: String?
        var index = 0
        func value(_ option: String) throws(CommandFailure) -> String {
            index += 1
            guard index < arguments.count else {
                throw CommandFailure(.failedInitialization, "\(option) needs a value")
            }
            return arguments[index]
        }
        func positive(_ option: String) throws(CommandFailure) -> Int {
            let text = try value(option)
            guard let number = Int(text), number > 0 else {
                throw CommandFailure(.failedInitialization, "\(option) needs a positive count, not \(text)")
            }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-c": concurrency = try positive(argument)
            case "--connections": connections = try positive(argument)
            case "-n": requests = try positive(argument)
            case "-d":
                let text = try value(argument)
                guard let parsed = Self.duration(text) else {
                    throw CommandFailure(.failedInitialization, "-d needs a duration such as 30s, not \(text)")
                }
                duration = parsed
            case "--rate":
                let text = try value(argument)
                guard let number = Double(text), number > 0, number.isFinite else {
                    throw CommandFailure(.failedInitialization, "--rate needs a positive number, not \(text)")
                }
                rate = number
            case "-H":
                let text = try value(argument)
                guard let colon = text.firstIndex(of: ":") else {
                    throw CommandFailure(.failedInitialization, "-H needs \"Name: value\", not \(text)")
                }
                let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                headers.append((String(text[..<colon]), String(value)))
            case "-m":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0 else {
                    throw CommandFailure(.failedInitialization, "-m needs a positive number of seconds, not \(text)")
                }
                timeout = seconds
            case "--json": json = true
            case "--busy-poll":
                let text = try value(argument)
                guard let parsed = Self.duration(text) else {
                    throw CommandFailure(
                        .failedInitialization, "--busy-poll needs a duration such as 50us, not \(text)")
                }
                busyPoll = parsed
            case "--cacert": curlSettings.caCertificateFile = try value(argument)
            case "--capath": curlSettings.caDirectory = try value(argument)
            default:
                if let option = Self.curlSwitches[argument] {
                    curlSettings.apply(option, true)
                } else {
                    guard !argument.hasPrefix("-"), url == nil else {
                        throw CommandFailure(.failedInitialization, "unknown option or a second URL: \(argument)")
                    }
                    url = argument
                }
            }
            index += 1
        }
        guard let url else { throw CommandFailure(.failedInitialization, "no URL") }
        if requests != nil, duration != nil {
            throw CommandFailure(.failedInitialization, "-n and -d exclude each other")
        }
        if requests == nil, duration == nil { requests = 10_000 }
        self.url = url.contains("://") ? url : "http://" + url
    }

    /// `50us` (or `50µs`), `500ms`, `30s`, `2m`, `1h`, or a number of seconds.
    static func duration(_ text: String) -> Duration? {
        // "us" and "ms" before "s", which ends them.
        let units: [(suffix: String, seconds: Double)] = [
            ("us", 1e-6), ("µs", 1e-6), ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600),
        ]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)), number > 0 else { return nil }
            return .microseconds(Int64((number * seconds * 1_000_000).rounded()))
        }
        guard let number = Double(text), number > 0 else { return nil }
        return .microseconds(Int64((number * 1_000_000).rounded()))
    }
}
