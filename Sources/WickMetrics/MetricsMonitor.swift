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
    private let handleSets = Mutex<[HandleSetKey: ExchangeMetricHandles]>([:])
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

    /// Counts the request as active from its first resume.
    public func requestDidResume(_ request: Request) {
        let isFirst = started.withLock { starts in
            let id = ObjectIdentifier(request)
            guard starts[id] == nil else { return false }
            starts[id] = .now
            return true
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

    /// The handles of `request`'s dimensions with `status`: the set made for them before, or a
    /// new one (kept while there are fewer than `maximumHandleSets`). Looked up by what the
    /// request says, before any label is worked out: one hash per exchange.
    private func handles(for request: HTTPRequest, status: Int) -> ExchangeMetricHandles {
        let key = HandleSetKey(request, status: dimensions.statusValue(status))
        if let made = handleSets.withLock({ $0[key] }) { return made }
        let made = ExchangeMetricHandles(
            labels: dimensions.of(request), statusLabel: dimensions.statusDimension(status), factory: factory)
        return handleSets.withLock { sets in
            if let raced = sets[key] { return raced }
            if sets.count < Self.maximumHandleSets { sets[key] = made }
            return made
        }
    }

    /// What picks a handle set: the request's method, scheme, host as written (or its Unix
    /// socket) and port, and the status's label value. Requests with equal keys have equal
    /// dimensions; the labels themselves (a host beyond the policy's bound, a method outside
    /// the known set) are worked out once, when the set is made.
    private struct HandleSetKey: Hashable {
        let method: String
        let scheme: String?
        let host: String?
        let unixSocketPath: String?
        let port: Int?
        let status: Int

        init(_ request: HTTPRequest, status: Int) {
            let url = request.url
            method = request.method.rawValue
            scheme = url.scheme
            host = url.host(percentEncoded: true)
            unixSocketPath = request.unixSocketPath
            port = url.port
            self.status = status
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
