// Fans every event out to a Session's monitors: inline ones at once, the others on their queues.
import Dispatch
public import FoundationEssentials

/// Hands each event to every monitor, asynchronously on the monitor's own queue (Alamofire's
/// `CompositeEventMonitor`), or first and at once to a monitor that `receivesEventsInline`. A
/// Session's `eventMonitor` is one of these.
public final class CompositeEventMonitor: EventMonitor {
    /// The monitors, in the session's order (events reach the inline ones first, in this order).
    public let monitors: [any EventMonitor]
    /// The monitors that `receivesEventsInline`, called in turn on the event's thread, when
    /// every one of them is a class (the usual case): a call through a class existential copies
    /// nothing, where one through `any EventMonitor` copies the existential first.
    private let inlineObjects: [any EventMonitor & AnyObject]
    /// The same monitors when some are not classes (then `inlineObjects` is empty).
    private let inlineValues: [any EventMonitor]
    /// The others, each sent the event on its `queue` after the inline monitors have had it.
    private let queuedMonitors: [any EventMonitor]

    /// A composite of `monitors`. Each one's `receivesEventsInline` is read here, once.
    public init(monitors: [any EventMonitor]) {
        self.monitors = monitors
        let inline = monitors.filter(\.receivesEventsInline)
        let objects = inline.compactMap { $0 as? any EventMonitor & AnyObject }
        inlineObjects = objects.count == inline.count ? objects : []
        inlineValues = objects.count == inline.count ? [] : inline
        queuedMonitors = monitors.filter { !$0.receivesEventsInline }
    }

    /// Calls `deliver` with each inline monitor in turn (one of the two lists is empty, so
    /// the order is the session's).
    @inline(__always)
    private func eachInline(_ deliver: (any EventMonitor) -> Void) {
        for monitor in inlineObjects { deliver(monitor) }
        for monitor in inlineValues { deliver(monitor) }
    }

    /// Sends `event` to every queued monitor on its queue. Every event first calls the inline
    /// monitors directly and makes this closure only when some monitor is queued: a session
    /// whose monitors are all inline (metrics, tracing) allocates nothing per event.
    private func enqueue(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        for monitor in queuedMonitors {
            monitor.queue.async { event(monitor) }
        }
    }

    /// Passes the event on.
    public func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) {
        eachInline { $0.request(request, didCreateInitialRequest: initialRequest) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didCreateInitialRequest: initialRequest) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didFailToCreateRequestWithError error: WickError) {
        eachInline { $0.request(request, didFailToCreateRequestWithError: error) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didFailToCreateRequestWithError: error) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest
    ) {
        eachInline { $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError
    ) {
        eachInline { $0.request(request, didFailToAdaptRequest: initialRequest, withError: error) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didFailToAdaptRequest: initialRequest, withError: error) }
    }
    /// Passes the event on.
    public func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        eachInline { $0.request(request, willSend: httpRequest) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, willSend: httpRequest) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        eachInline { $0.request(request, didEvaluateServerTrust: evaluation) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didEvaluateServerTrust: evaluation) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        eachInline { $0.request(request, didAcquireConnection: connection) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didAcquireConnection: connection) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource) {
        eachInline { $0.request(request, didReceiveCachedResponse: response, source: source) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didReceiveCachedResponse: response, source: source) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>) {
        eachInline { $0.request(request, didRevalidateInBackground: result) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didRevalidateInBackground: result) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        eachInline { $0.request(request, didReceiveResponse: response, bodyByteCount: bodyByteCount) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didReceiveResponse: response, bodyByteCount: bodyByteCount) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        eachInline { $0.request(request, didGatherMetrics: metrics) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didGatherMetrics: metrics) }
    }
    /// Passes the event on.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        eachInline { $0.request(request, willRedirectTo: newRequest, for: response) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, willRedirectTo: newRequest, for: response) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>
    ) {
        eachInline { $0.request(request, didValidateRequest: httpRequest, response: response, withResult: result) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didValidateRequest: httpRequest, response: response, withResult: result) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {
        eachInline { $0.request(request, didDecideRetry: decision, dueTo: error) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didDecideRetry: decision, dueTo: error) }
    }
    /// Passes the event on.
    public func requestIsRetrying(_ request: Request) {
        eachInline { $0.requestIsRetrying(request) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.requestIsRetrying(request) }
    }
    /// Passes the event on.
    public func requestRetryWasRefusedByBudget(_ request: Request) {
        eachInline { $0.requestRetryWasRefusedByBudget(request) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.requestRetryWasRefusedByBudget(request) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didInjectFault fault: InjectedFault) {
        eachInline { $0.request(request, didInjectFault: fault) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didInjectFault: fault) }
    }
    /// Passes the event on.
    public func requestDidResume(_ request: Request) {
        eachInline { $0.requestDidResume(request) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.requestDidResume(request) }
    }
    /// Passes the event on.
    public func requestDidSuspend(_ request: Request) {
        eachInline { $0.requestDidSuspend(request) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.requestDidSuspend(request) }
    }
    /// Passes the event on.
    public func requestDidCancel(_ request: Request) {
        eachInline { $0.requestDidCancel(request) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.requestDidCancel(request) }
    }
    /// Passes the event on.
    public func requestDidFinish(_ request: Request) {
        eachInline { $0.requestDidFinish(request) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.requestDidFinish(request) }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(
        _ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>
    ) {
        eachInline { $0.request(request, didParseResponse: response) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didParseResponse: response) }
    }
    /// Passes the event on.
    public func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>) {
        eachInline { $0.request(request, didFinishDownloadingWith: result) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didFinishDownloadingWith: result) }
    }
    /// Passes the event on.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        eachInline { $0.request(request, didCreateDestinationURL: url) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didCreateDestinationURL: url) }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>
    ) {
        eachInline { $0.request(request, didParseResponse: response) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didParseResponse: response) }
    }
    /// Passes the event on.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable) {
        eachInline { $0.request(request, didCreateUploadable: uploadable) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didCreateUploadable: uploadable) }
    }
    /// Passes the event on.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError) {
        eachInline { $0.request(request, didFailToCreateUploadableWithError: error) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didFailToCreateUploadableWithError: error) }
    }
    /// Passes the event on.
    public func request(
        _ request: UploadRequest, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64?
    ) {
        eachInline {
            $0.request(
                request, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
        guard !queuedMonitors.isEmpty else { return }
        enqueue {
            $0.request(
                request, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(_ request: DataStreamRequest, didParseStream result: Result<Value, WickError>)
    {
        eachInline { $0.request(request, didParseStream: result) }
        guard !queuedMonitors.isEmpty else { return }
        enqueue { $0.request(request, didParseStream: result) }
    }
}
