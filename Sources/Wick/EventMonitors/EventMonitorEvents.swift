// The set of events an event monitor asks for, so a session calls it for those alone.

/// A set of `EventMonitor` events, one member per method of the protocol. A monitor's `handledEvents`
/// says which it handles; the session's `CompositeEventMonitor` delivers only those, and a
/// request skips the work of building an event (a response head, a metrics value, a
/// connection callback) that no monitor asked for.
public struct EventMonitorEvents: OptionSet, Sendable, Hashable {
    /// One bit per event.
    public let rawValue: UInt64

    /// The set with these bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// `request(_:didCreateInitialRequest:)`.
    public static let didCreateInitialRequest = EventMonitorEvents(rawValue: 1 << 0)
    /// `request(_:didFailToCreateRequestWithError:)`.
    public static let didFailToCreateRequest = EventMonitorEvents(rawValue: 1 << 1)
    /// `request(_:didAdaptInitialRequest:to:)`.
    public static let didAdaptInitialRequest = EventMonitorEvents(rawValue: 1 << 2)
    /// `request(_:didFailToAdaptRequest:withError:)`.
    public static let didFailToAdaptRequest = EventMonitorEvents(rawValue: 1 << 3)
    /// `request(_:willSend:)`.
    public static let willSend = EventMonitorEvents(rawValue: 1 << 4)
    /// `request(_:didEvaluateServerTrust:)`.
    public static let didEvaluateServerTrust = EventMonitorEvents(rawValue: 1 << 5)
    /// `request(_:didAcquireConnection:)`.
    public static let didAcquireConnection = EventMonitorEvents(rawValue: 1 << 6)
    /// `request(_:didReceiveCachedResponse:source:)`.
    public static let didReceiveCachedResponse = EventMonitorEvents(rawValue: 1 << 7)
    /// `request(_:didRevalidateInBackground:)`.
    public static let didRevalidateInBackground = EventMonitorEvents(rawValue: 1 << 8)
    /// `request(_:didReceiveResponse:bodyByteCount:)`.
    public static let didReceiveResponse = EventMonitorEvents(rawValue: 1 << 9)
    /// `request(_:didGatherMetrics:)`.
    public static let didGatherMetrics = EventMonitorEvents(rawValue: 1 << 10)
    /// `request(_:willRedirectTo:for:)`.
    public static let willRedirect = EventMonitorEvents(rawValue: 1 << 11)
    /// `request(_:didValidateRequest:response:withResult:)`.
    public static let didValidateRequest = EventMonitorEvents(rawValue: 1 << 12)
    /// `request(_:didDecideRetry:dueTo:)`.
    public static let didDecideRetry = EventMonitorEvents(rawValue: 1 << 13)
    /// `requestIsRetrying(_:)`.
    public static let isRetrying = EventMonitorEvents(rawValue: 1 << 14)
    /// `requestRetryWasRefusedByBudget(_:)`.
    public static let retryWasRefusedByBudget = EventMonitorEvents(rawValue: 1 << 15)
    /// `request(_:didInjectFault:)`.
    public static let didInjectFault = EventMonitorEvents(rawValue: 1 << 16)
    /// `requestDidResume(_:)`.
    public static let didResume = EventMonitorEvents(rawValue: 1 << 17)
    /// `requestDidSuspend(_:)`.
    public static let didSuspend = EventMonitorEvents(rawValue: 1 << 18)
    /// `requestDidCancel(_:)`.
    public static let didCancel = EventMonitorEvents(rawValue: 1 << 19)
    /// `requestDidFinish(_:)`.
    public static let didFinish = EventMonitorEvents(rawValue: 1 << 20)
    /// `request(_:didParseResponse:)` of a `DataRequest`.
    public static let didParseResponse = EventMonitorEvents(rawValue: 1 << 21)
    /// `request(_:didFinishDownloadingWith:)`.
    public static let didFinishDownloading = EventMonitorEvents(rawValue: 1 << 22)
    /// `request(_:didCreateDestinationURL:)`.
    public static let didCreateDestinationURL = EventMonitorEvents(rawValue: 1 << 23)
    /// `request(_:didParseResponse:)` of a `DownloadRequest`.
    public static let didParseDownloadResponse = EventMonitorEvents(rawValue: 1 << 24)
    /// `request(_:didCreateUploadable:)`.
    public static let didCreateUploadable = EventMonitorEvents(rawValue: 1 << 25)
    /// `request(_:didFailToCreateUploadableWithError:)`.
    public static let didFailToCreateUploadable = EventMonitorEvents(rawValue: 1 << 26)
    /// `request(_:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`.
    public static let didSendBodyData = EventMonitorEvents(rawValue: 1 << 27)
    /// `request(_:didParseStream:)`.
    public static let didParseStream = EventMonitorEvents(rawValue: 1 << 28)

    /// Every event, those added in later versions included: the default.
    public static let all = EventMonitorEvents(rawValue: .max)
}
