// Records every request's metrics from Wick's EventMonitor events into swift-metrics.
import CoreMetrics
public import Dispatch
import FoundationEssentials
import Synchronization
public import Wick

/// An `EventMonitor` that records the requests of a `Session` into swift-metrics: durations,
/// queue (pool) waits, connect and TLS phases, bytes, connection reuse, retries, redirects,
/// replays and the number of active requests, named as `WickMetricName` says. Give it to the
/// session: `Session(eventMonitors: [MetricsMonitor()])`.
///
/// Each exchange (every attempt, redirect hop and challenge answer) is one
/// `http.client.request.duration` sample labelled with its status, as OpenTelemetry counts
/// HTTP requests; a request that fails without a response adds one sample labelled with its
/// `error.type`, timed from its start. Memory is bounded: the monitor remembers the start of
/// each running request only, and at most the host policy's number of hosts.
public final class MetricsMonitor: EventMonitor {
    /// The queue events arrive on when they are not delivered inline: one of the monitor's own,
    /// so recording never waits behind another monitor.
    public let queue = DispatchQueue(label: "wick.metrics-monitor")
    /// Whether events are recorded at once, on the thread that produces them (the default):
    /// recording is a few locked counter and timer updates, cheaper than a dispatch and a
    /// wake-up per event. See `EventMonitor.receivesEventsInline`.
    public let receivesEventsInline: Bool
    /// The settings it was made with.
    public let configuration: MetricsConfiguration
    private let dimensions: RequestDimensions
    /// Each set of dimensions' handles, made on its first exchange (at most
    /// `maximumHandleSets`; beyond, an exchange's handles are made for it alone).
    private let handleSets = Mutex(HandleSets())
    /// The most handle sets kept: the host policy and the status label already bound how many
    /// dimension sets there are; this bounds memory whatever they allow.
    static let maximumHandleSets = 1_024
    /// When each running request started; removed when it finishes, before the request can
    /// go away and its identifier be reused.
    private let started = Mutex<[ObjectIdentifier: ContinuousClock.Instant]>([:])
    private let activeRequests: Meter

    /// A monitor recording into `configuration.factory` (nil: `MetricsSystem.factory`);
    /// `receivesEventsInline` false records on `queue` instead (for a metrics backend that is
    /// slow to record).
    public init(configuration: MetricsConfiguration = MetricsConfiguration(), receivesEventsInline: Bool = true) {
        self.configuration = configuration
        self.receivesEventsInline = receivesEventsInline
        dimensions = RequestDimensions(
            hosts: HostLabeller(policy: configuration.hostLabels), statusLabel: configuration.statusLabel)
        activeRequests = Meter(
            label: WickMetricName.activeRequests, dimensions: [],
            factory: configuration.factory ?? MetricsSystem.factory)
    }

    private var factory: any MetricsFactory { configuration.factory ?? MetricsSystem.factory }

    /// The events it records: resumes and finishes (active requests, failures' durations),
    /// each exchange's metrics, redirects and retries.
    public var handledEvents: EventMonitorEvents {
        [.didResume, .didGatherMetrics, .willRedirect, .isRetrying, .didFinish]
    }

    /// Counts the request as active from its first resume (one hash: a later resume, rare,
    /// puts the first start back).
    public func requestDidResume(_ request: Request) {
        let now = ContinuousClock.now
        let isFirst = started.withLock { starts in
            let id = ObjectIdentifier(request)
            guard let first = starts.updateValue(now, forKey: id) else { return true }
            starts[id] = first
            return false
        }
        if isFirst { activeRequests.increment() }
    }

    /// Records the exchange that just ended: its duration, queue wait, new connection's phases,
    /// bytes, and whether it was replayed.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        let exchange = metrics.last
        let handles = handles(for: exchange.request, status: exchange.statusCode)
        if let total = exchange.total { handles.duration.recordNanoseconds(Self.nanoseconds(total)) }
        if let wait = exchange.poolWait { handles.timeInQueue.recordNanoseconds(Self.nanoseconds(wait)) }
        if let resolve = exchange.resolve { handles.resolveDuration.recordNanoseconds(Self.nanoseconds(resolve)) }
        if let connect = exchange.connect { handles.connectDuration.recordNanoseconds(Self.nanoseconds(connect)) }
        if let handshake = exchange.tlsHandshake {
            handles.tlsHandshakeDuration.recordNanoseconds(Self.nanoseconds(handshake))
            let resumed = exchange.connection?.isTLSSessionResumed == true
            (resumed ? handles.tlsHandshakesResumed : handles.tlsHandshakesFull).increment()
        }
        handles.requestBodySize.record(exchange.requestBytesSent)
        handles.responseBodySize.record(exchange.responseBytesReceived)
        handles.bytesSent.increment(by: exchange.requestBytesSent)
        handles.bytesReceived.increment(by: exchange.responseBytesReceived)
        (exchange.isReused ? handles.leasesReused : handles.leasesNew).increment()
        if exchange.wasReplayed { handles.replays.increment() }
    }

    /// The handles of `request`'s dimensions with `status`: the set the previous exchange used
    /// when its key is the same (one comparison: a daemon mostly talks to few origins), else
    /// the set made for them before, else a new one (kept while there are fewer than
    /// `maximumHandleSets`). Looked up by what the request says, before any label is worked
    /// out.
    private func handles(for request: HTTPRequest, status: Int) -> ExchangeMetricHandles {
        let key = HandleSetKey(request, status: dimensions.statusValue(status))
        let found = handleSets.withLock { sets -> ExchangeMetricHandles? in
            if sets.lastKey == key, let last = sets.lastHandles { return last }
            guard let made = sets.all[key] else { return nil }
            sets.remember(key, made)
            return made
        }
        if let found { return found }
        let made = ExchangeMetricHandles(
            labels: dimensions.of(request), statusLabel: dimensions.statusDimension(status), factory: factory)
        return handleSets.withLock { sets in
            if let raced = sets.all[key] { return raced }
            if sets.all.count < Self.maximumHandleSets { sets.all[key] = made }
            sets.remember(key, made)
            return made
        }
    }

    /// The handle sets made so far, and the one the last exchange used.
    private struct HandleSets {
        var all: [HandleSetKey: ExchangeMetricHandles] = [:]
        /// The last exchange's key and set; before the first, a key no request has (comparing
        /// with a non-optional key copies nothing).
        var lastKey = HandleSetKey.none
        var lastHandles: ExchangeMetricHandles?

        mutating func remember(_ key: HandleSetKey, _ handles: ExchangeMetricHandles) {
            lastKey = key
            lastHandles = handles
        }
    }

    /// What picks a handle set: the request's method, its URL up to the path (scheme, user
    /// information, host and port as written), its Unix socket, and the status's label value.
    /// Requests with equal keys have equal dimensions; the labels themselves (a host beyond the
    /// policy's bound, a method outside the known set, the scheme's default port) are worked
    /// out once, when the set is made. The origin is the first `originLength` bytes of the
    /// URL's own text, so making a key copies nothing and reads the URL's parts not at all.
    private struct HandleSetKey: Hashable {
        let method: String
        let url: String
        let originLength: Int
        let unixSocketPath: String?
        let status: Int

        /// A key no request has: its status is negative.
        static let none = HandleSetKey(method: "", url: "", originLength: 0, unixSocketPath: nil, status: -1)

        private init(method: String, url: String, originLength: Int, unixSocketPath: String?, status: Int) {
            self.method = method
            self.url = url
            self.originLength = originLength
            self.unixSocketPath = unixSocketPath
            self.status = status
        }

        init(_ request: HTTPRequest, status: Int) {
            method = request.method.rawValue
            url = request.url.absoluteString
            originLength = Self.originLength(of: url)
            unixSocketPath = request.unixSocketPath
            self.status = status
        }

        /// Equal method, status, socket and origin bytes. Two requests to the same URL text
        /// (often one string) compare without reading the origin byte by byte.
        static func == (lhs: HandleSetKey, rhs: HandleSetKey) -> Bool {
            guard lhs.status == rhs.status, lhs.originLength == rhs.originLength, lhs.method == rhs.method,
                lhs.unixSocketPath == rhs.unixSocketPath
            else { return false }
            if lhs.url == rhs.url { return true }
            let left = lhs.url.utf8.span
            let right = rhs.url.utf8.span
            var index = 0
            while index < lhs.originLength {
                if left[index] != right[index] { return false }
                index += 1
            }
            return true
        }

        /// Hashes the method, status, socket, the origin's length and its last eight bytes (the
        /// port's digits and the host's end, where origins differ most): equality compares the
        /// whole origin, so a collision costs a comparison, never a wrong set.
        func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            hasher.combine(status)
            hasher.combine(unixSocketPath)
            hasher.combine(originLength)
            let bytes = url.utf8.span
            var tail: UInt64 = 0
            for index in max(0, originLength - 8)..<originLength { tail = tail << 8 | UInt64(bytes[index]) }
            hasher.combine(tail)
        }

        /// The length of `url` up to the end of its authority (`scheme://authority`); of the
        /// scheme and its colon alone for a URL without an authority, whose host is nil.
        static func originLength(of url: String) -> Int {
            let bytes = url.utf8.span
            var index = 0
            while index < bytes.count && bytes[index] != UInt8(ascii: ":") { index += 1 }
            guard index < bytes.count else { return bytes.count }
            index += 1
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/")
            else { return index }
            index += 2
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                index += 1
            }
            return index
        }
    }

    /// Counts a redirect followed.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        guard let sent = request.request else { return }
        Counter(label: WickMetricName.redirects, dimensions: dimensions.of(sent), factory: factory).increment()
    }

    /// Counts a retry.
    public func requestIsRetrying(_ request: Request) {
        guard let sent = request.request else { return }
        Counter(label: WickMetricName.retries, dimensions: dimensions.of(sent), factory: factory).increment()
    }

    /// Ends the request's activity; a failure without a response adds a duration sample
    /// labelled with its `error.type`.
    public func requestDidFinish(_ request: Request) {
        guard let start = started.withLock({ $0.removeValue(forKey: ObjectIdentifier(request)) }) else { return }
        activeRequests.decrement()
        guard let error = request.error, request.response == nil, let sent = request.request else { return }
        record(WickMetricName.requestDuration, dimensions.of(sent, error: error), .now - start)
    }

    /// Records `duration` into the timer `label` with `labels`.
    private func record(_ label: String, _ labels: [(String, String)], _ duration: Duration) {
        Timer(label: label, dimensions: labels, preferredDisplayUnit: .seconds, factory: factory)
            .recordNanoseconds(Self.nanoseconds(duration))
    }

    /// `duration` in whole nanoseconds.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
