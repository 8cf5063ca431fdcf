// The logger a Session uses when it is given none: one that logs nothing.
public import Logging

extension Logger {
    /// A logger that logs nothing, whatever `LoggingSystem` was bootstrapped with: the default
    /// of `Session.Configuration.logger`, as async-http-client's disabled logger. Its level is
    /// `critical` and its handler discards; a session that keeps it skips a request's log points
    /// altogether (no logger copy, no level check, no allocation).
    public static var wickDisabled: Logger {
        Logger(label: "wick", factory: { _ in SwiftLogNoOpLogHandler() })
    }
}
