// README's "Service lifecycle" example, compiled with the tests. Never run.
import Logging
import ServiceLifecycle
import Wick
import WickServiceLifecycle

private func readmeLifecycleTour(apiServer: any Service, session: Session, logger: Logger) async throws {
    let group = ServiceGroup(
        services: [apiServer, SessionService(session, drainTimeout: .seconds(10))],
        gracefulShutdownSignals: [.sigterm], logger: logger)
    try await group.run()
}
