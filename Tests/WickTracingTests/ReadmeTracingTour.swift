// README's "Tracing (swift-distributed-tracing)" example, compiled with the tests. Never run.
import Wick
import WickTracing

private func readmeTracingTour(url: String) async throws {
    let session = Session(eventMonitors: [TracingMonitor()])
    // In the handler's task, where the server's span is the current ServiceContext:
    let data = try await session.request(url, interceptor: TracingInterceptor()).serializingData().value
    _ = data
}
