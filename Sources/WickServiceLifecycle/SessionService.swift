// A Session as a swift-service-lifecycle Service: drains on graceful shutdown, then cancels.
public import ServiceLifecycle
public import Wick

/// Runs a `Session` as a `Service` of a `ServiceGroup`, so a daemon's HTTP client stops with
/// the rest of it: `ServiceGroup(services: [server, SessionService(session)], ...)`.
///
/// `run()` waits for graceful shutdown (SIGTERM, or the group's own). Then it drains: requests
/// already made may finish until `drainTimeout` has passed, checked every `drainPollInterval`;
/// those still running then are cancelled (they fail with `WickError.explicitlyCancelled`),
/// and the session is shut down (its connections closed, its loop threads stopped), after
/// which new requests fail with `WickError.sessionInvalidated`. Cancellation of the service's
/// task, before or during the drain, skips straight to cancelling and shutting down.
///
/// Put it after the services that make requests in the group's list: a group shuts services
/// down in reverse order, so they stop making requests before the session drains.
public struct SessionService: Service {
    /// The session it runs.
    public let session: Session
    /// How long running requests may take to finish once shutdown began. Default: 10 s.
    public var drainTimeout: Duration
    /// How often the drain checks whether every request has finished. Default: 10 ms.
    public var drainPollInterval: Duration

    /// A service for `session`, draining for up to `drainTimeout`.
    public init(_ session: Session, drainTimeout: Duration = .seconds(10), drainPollInterval: Duration = .milliseconds(10)) {
        self.session = session
        self.drainTimeout = drainTimeout
        self.drainPollInterval = drainPollInterval
    }

    /// Waits for graceful shutdown or cancellation, drains, cancels what is left, and shuts the
    /// session down. Throws nothing: a cancellation is the signal to stop, not a failure.
    public func run() async throws {
        do {
            try await gracefulShutdown()
            try await drain()
        } catch {
            // Cancelled (before or during the drain): stop now.
        }
        session.cancelAllRequests()
        await session.shutdown()
    }

    /// Returns once no request is running, or when `drainTimeout` has passed.
    /// - Throws: `CancellationError` when the task is cancelled meanwhile.
    private func drain() async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + drainTimeout
        while hasRunningRequests(), clock.now < deadline {
            try await Task.sleep(for: drainPollInterval)
        }
    }

    /// Whether any request the session made has not finished.
    private func hasRunningRequests() -> Bool {
        var running = false
        session.withAllRequests { running = !$0.isEmpty }
        return running
    }
}
