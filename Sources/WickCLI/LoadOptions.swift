// What `wick bench` is asked to do: the URL, how many connections, how long, at what rate.
import FoundationEssentials

/// The options of `wick bench URL [-c N] [-n N | -d DURATION] [--rate R] [-H 'Name: value']...
/// [-m SECONDS] [--json]`, a load generator on the same `Session` an embedding daemon uses.
public struct LoadOptions: Sendable {
    /// The URL every request gets.
    public var url: String
    /// `-c`: requests in flight at once, each on a connection of its own (default 16).
    public var concurrency = 16
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

    /// The usage `wick bench` prints when its arguments are wrong.
    public static let usage = """
        Usage: wick bench URL [-c CONNECTIONS] [-n REQUESTS | -d DURATION] [--rate PER_SECOND]
                              [-H "Name: value"]... [-m SECONDS] [--json]
          -c  requests in flight at once (default 16)     -n  requests in all (default 10000)
          -d  how long: 30s, 500ms, 2m (instead of -n)    --rate  an open model at this many per second
          -H  a header field for every request            -m  each request's timeout (default 30 s)

        """

    /// Options from `wick bench`'s arguments (without `bench`).
    /// - Throws: `CommandFailure` (2) naming what is wrong: an unknown option, a missing or
    ///   malformed value, no URL, or `-n` with `-d`.
    public init(arguments: [String]) throws(CommandFailure) {
        var url: String?
        var index = 0
        func value(_ option: String) throws(CommandFailure) -> String {
            index += 1
            guard index < arguments.count else { throw CommandFailure(.failedInitialization, "\(option) needs a value") }
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
            default:
                guard !argument.hasPrefix("-"), url == nil else {
                    throw CommandFailure(.failedInitialization, "unknown option or a second URL: \(argument)")
                }
                url = argument
            }
            index += 1
        }
        guard let url else { throw CommandFailure(.failedInitialization, "no URL") }
        if requests != nil, duration != nil { throw CommandFailure(.failedInitialization, "-n and -d exclude each other") }
        if requests == nil, duration == nil { requests = 10_000 }
        self.url = url.contains("://") ? url : "http://" + url
    }

    /// `30s`, `500ms`, `2m`, `1h`, or a number of seconds.
    static func duration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600)]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)), number > 0 else { return nil }
            return .milliseconds(Int64((number * seconds * 1_000).rounded()))
        }
        guard let number = Double(text), number > 0 else { return nil }
        return .milliseconds(Int64((number * 1_000).rounded()))
    }
}
