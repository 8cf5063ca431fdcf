// A request's own logger: async-http-client's per-request `Logger`, as a chainable setting.
public import Logging

extension Request {
    /// Logs this request's lines to `logger` instead of the session's
    /// (`Session.Configuration.logger`), so they carry the caller's metadata (a server's own
    /// request id, say). Set it before the request starts: lines written before it was set went
    /// to the session's logger. What is logged, and at which level, is described on
    /// `Session.Configuration.logger`.
    /// - Returns: the request, for chaining.
    @discardableResult
    public func logging(to logger: Logger) -> Self {
        mutableState.withLock { $0.records.logger = logger }
        return self
    }

    /// The logger of a request whose own is `logger` (nil: the session's), or nil when neither
    /// logs anything (`Session.requestLogger`), so that the log points are skipped.
    func effectiveLogger(_ logger: Logger?) -> Logger? {
        logger ?? session.requestLogger
    }
}
