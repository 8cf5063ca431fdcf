// The swift-metrics handles an exchange records into, made once per set of dimensions.
import CoreMetrics

/// The handles one exchange's metrics go to, for one set of dimensions (method, scheme, host,
/// port and status label): made once, on the first exchange with those dimensions, and reused,
/// so an exchange records into existing handles instead of making a `Timer`, `Recorder` or
/// `Counter` (and its dimension arrays) per value, as it did at 17.6k instructions per request.
final class ExchangeMetricHandles: Sendable {
    let duration: Timer
    let timeInQueue: Timer
    let resolveDuration: Timer
    let connectDuration: Timer
    let tlsHandshakeDuration: Timer
    let tlsHandshakesResumed: Counter
    let tlsHandshakesFull: Counter
    let requestBodySize: Recorder
    let responseBodySize: Recorder
    let bytesSent: Counter
    let bytesReceived: Counter
    let leasesReused: Counter
    let leasesNew: Counter
    let replays: Counter

    /// The handles for `labels` (the request's dimensions) and `statusLabel` (the response's,
    /// on the duration only), from `factory`.
    init(labels: [(String, String)], statusLabel: (String, String), factory: any MetricsFactory) {
        func timer(_ label: String, _ dimensions: [(String, String)]) -> Timer {
            Timer(label: label, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
        }
        func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }
        duration = timer(WickMetricName.requestDuration, labels + [statusLabel])
        timeInQueue = timer(WickMetricName.timeInQueue, labels)
        resolveDuration = timer(WickMetricName.resolveDuration, labels)
        connectDuration = timer(WickMetricName.connectDuration, labels)
        tlsHandshakeDuration = timer(WickMetricName.tlsHandshakeDuration, labels)
        tlsHandshakesResumed = counter(WickMetricName.tlsHandshakes, labels + [("wick.tls.resumed", "true")])
        tlsHandshakesFull = counter(WickMetricName.tlsHandshakes, labels + [("wick.tls.resumed", "false")])
        requestBodySize = Recorder(label: WickMetricName.requestBodySize, dimensions: labels, factory: factory)
        responseBodySize = Recorder(label: WickMetricName.responseBodySize, dimensions: labels, factory: factory)
        bytesSent = counter(WickMetricName.bytesSent, labels)
        bytesReceived = counter(WickMetricName.bytesReceived, labels)
        leasesReused = counter(WickMetricName.connectionLeases, labels + [("wick.connection.reused", "true")])
        leasesNew = counter(WickMetricName.connectionLeases, labels + [("wick.connection.reused", "false")])
        replays = counter(WickMetricName.replays, labels)
    }
}
