// README's "Logging (swift-log)" example, compiled with the tests so it never shows code that
// does not build. Never run: the host is an example.
import Logging
import Wick

private func readmeLoggingTour(url: String, incomingRequestID: Int) async throws {
    var configuration = Session.Configuration()
    configuration.logger = Logger(label: "api-client")  // the session's requests log here
    let session = Session(configuration: configuration)

    // A request's own logger (with the server's request id, say) replaces the session's:
    var logger = Logger(label: "api-client")
    logger[metadataKey: "request-id"] = "\(incomingRequestID)"
    let data = try await session.request(url).logging(to: logger).serializingData().value
    _ = data
}
