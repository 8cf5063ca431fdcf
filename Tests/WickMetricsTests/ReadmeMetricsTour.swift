// README's "Metrics (swift-metrics)" example, compiled with the tests. Never run.
import Wick
import WickMetrics

private func readmeMetricsTour() {
    let session = Session(eventMonitors: [MetricsMonitor()])  // into MetricsSystem.factory
    let pools = PoolGaugeReporter(session: session)
    Task { await pools.run(every: .seconds(10)) }  // cancel the task to stop it
}
