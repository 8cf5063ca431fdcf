// What MetricsMonitor records and where: the factory, the host bound, the status dimension.
public import CoreMetrics

/// The settings of a `MetricsMonitor` and a `PoolGaugeReporter`.
public struct MetricsConfiguration: Sendable {
    /// How a response's status becomes a dimension.
    public enum StatusLabel: Sendable, Equatable {
        /// `http.response.status_code` = `200`, `404`, ... (OpenTelemetry's; at most 500 values).
        case code
        /// `http.response.status_class` = `2xx`, `4xx`, ... (five values).
        case statusClass
    }

    /// Where the metrics go; nil: `MetricsSystem.factory`, as bootstrapped by the application
    /// (swift-prometheus, swift-otel, ...).
    public var factory: (any MetricsFactory)?
    /// Which hosts get a dimension of their own. Default: the first 100 seen.
    public var hostLabels: HostLabelPolicy = .default
    /// How a status is labelled. Default: the code, as OpenTelemetry names it.
    public var statusLabel: StatusLabel = .code

    /// The defaults described on each property, with `factory` (nil: the global one).
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }
}
