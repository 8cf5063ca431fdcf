// Fans every event out to a Session's monitors: inline ones at once, the others on their queues.
import Dispatch
public import FoundationEssentials

/// Hands each event to every monitor that handles it (its `handledEvents`), asynchronously on
/// the monitor's own queue (Alamofire's `CompositeEventMonitor`), or first and at once to a
/// monitor that `receivesEventsInline`. A Session's `eventMonitor` is one of these.
public final class CompositeEventMonitor: EventMonitor {
    /// The monitors, in the session's order (events reach the inline ones first, in this order).
    public let monitors: [any EventMonitor]
    /// Every event some monitor handles: the union of their `handledEvents`, read once at `init`.
    public let handledEvents: EventMonitorEvents
    /// The monitors that `receivesEventsInline`, with the events each handles, called in turn
    /// on the event's thread, when every one of them is a class (the usual case): a call through
    /// a class existential copies nothing, where one through `any EventMonitor` copies the
    /// existential first.
    private let inlineObjects: [(monitor: any EventMonitor & AnyObject, events: EventMonitorEvents)]
    /// The same monitors when some are not classes (then `inlineObjects` is empty).
    private let inlineValues: [(monitor: any EventMonitor, events: EventMonitorEvents)]
    /// The events some inline monitor handles.
    private let inlineEvents: EventMonitorEvents
    /// The others, each sent the events it handles on its `queue`, after the inline monitors.
    private let queuedMonitors: [(monitor: any EventMonitor, events: EventMonitorEvents)]
    /// The events some queued monitor handles.
    private let queuedEvents: EventMonitorEvents

    /// A composite of `monitors`. Each one's `receivesEventsInline` and `handledEvents` are read here,
    /// once.
    public init(monitors: [any EventMonitor]) {
        self.monitors = monitors
        let inline = monitors.filter(\.receivesEventsInline).map { ($0, $0.handledEvents) }
        let objects = inline.compactMap { monitor, events in
            (monitor as? any EventMonitor & AnyObject).map { ($0, events) }
        }
        inlineObjects = objects.count == inline.count ? objects : []
        inlineValues = objects.count == inline.count ? [] : inline
        inlineEvents = inline.reduce(into: []) { $0.formUnion($1.1) }
        queuedMonitors = monitors.filter { !$0.receivesEventsInline }.map { ($0, $0.handledEvents) }
        queuedEvents = queuedMonitors.reduce(into: []) { $0.formUnion($1.events) }
        handledEvents = inlineEvents.union(queuedEvents)
    }

    /// Whether some monitor handles `event`: a request asks before it calls one of the events
    /// it tells on every request, so a session without monitors for it does not run the call.
    @inline(__always) func handles(_ event: EventMonitorEvents) -> Bool {
        handledEvents.contains(event)
    }

    /// Calls `deliver` with each inline monitor that handles `event`, in turn (one of the two
    /// lists is empty, so the order is the session's).
    @inline(__always)
    private func eachInline(_ event: EventMonitorEvents, _ deliver: (any EventMonitor) -> Void) {
        guard inlineEvents.contains(event) else { return }
        for entry in inlineObjects where entry.events.contains(event) { deliver(entry.monitor) }
        for entry in inlineValues where entry.events.contains(event) { deliver(entry.monitor) }
    }

    /// Sends `deliver` to every queued monitor that handles `event`, on its queue. Every event
    /// first calls the inline monitors directly and makes this closure only when some queued
    /// monitor handles it: a session whose monitors are all inline (metrics, tracing)
    /// allocates nothing per event.
    private func enqueue(_ event: EventMonitorEvents, _ deliver: @escaping @Sendable (any EventMonitor) -> Void) {
        for entry in queuedMonitors where entry.events.contains(event) {
            let monitor = entry.monitor
            monitor.queue.async { deliver(monitor) }
        }
    }

    /// Passes the event on.
    public func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) {
        eachInline(.didCreateInitialRequest) { $0.request(request, didCreateInitialRequest: initialRequest) }
        guard queuedEvents.contains(.didCreateInitialRequest) else { return }
        enqueue(.didCreateInitialRequest) { $0.request(request, didCreateInitialRequest: initialRequest) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didFailToCreateRequestWithError error: WickError) {
        eachInline(.didFailToCreateRequest) { $0.request(request, didFailToCreateRequestWithError: error) }
        guard queuedEvents.contains(.didFailToCreateRequest) else { return }
        enqueue(.didFailToCreateRequest) { $0.request(request, didFailToCreateRequestWithError: error) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest
    ) {
        eachInline(.didAdaptInitialRequest) {
            $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest)
        }
        guard queuedEvents.contains(.didAdaptInitialRequest) else { return }
        enqueue(.didAdaptInitialRequest) {
            $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest)
        }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError
    ) {
        eachInline(.didFailToAdaptRequest) {
            $0.request(request, didFailToAdaptRequest: initialRequest, withError: error)
        }
        guard queuedEvents.contains(.didFailToAdaptRequest) else { return }
        enqueue(.didFailToAdaptRequest) { $0.request(request, didFailToAdaptRequest: initialRequest, withError: error) }
    }
    /// Passes the event on.
    public func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        eachInline(.willSend) { $0.request(request, willSend: httpRequest) }
        guard queuedEvents.contains(.willSend) else { return }
        enqueue(.willSend) { $0.request(request, willSend: httpRequest) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        eachInline(.didEvaluateServerTrust) { $0.request(request, didEvaluateServerTrust: evaluation) }
        guard queuedEvents.contains(.didEvaluateServerTrust) else { return }
        enqueue(.didEvaluateServerTrust) { $0.request(request, didEvaluateServerTrust: evaluation) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        eachInline(.didAcquireConnection) { $0.request(request, didAcquireConnection: connection) }
        guard queuedEvents.contains(.didAcquireConnection) else { return }
        enqueue(.didAcquireConnection) { $0.request(request, didAcquireConnection: connection) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource) {
        eachInline(.didReceiveCachedResponse) {
            $0.request(request, didReceiveCachedResponse: response, source: source)
        }
        guard queuedEvents.contains(.didReceiveCachedResponse) else { return }
        enqueue(.didReceiveCachedResponse) { $0.request(request, didReceiveCachedResponse: response, source: source) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>) {
        eachInline(.didRevalidateInBackground) { $0.request(request, didRevalidateInBackground: result) }
        guard queuedEvents.contains(.didRevalidateInBackground) else { return }
        enqueue(.didRevalidateInBackground) { $0.request(request, didRevalidateInBackground: result) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        eachInline(.didReceiveResponse) {
            $0.request(request, didReceiveResponse: response, bodyByteCount: bodyByteCount)
        }
        guard queuedEvents.contains(.didReceiveResponse) else { return }
        enqueue(.didReceiveResponse) { $0.request(request, didReceiveResponse: response, bodyByteCount: bodyByteCount) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        eachInline(.didGatherMetrics) { $0.request(request, didGatherMetrics: metrics) }
        guard queuedEvents.contains(.didGatherMetrics) else { return }
        enqueue(.didGatherMetrics) { $0.request(request, didGatherMetrics: metrics) }
    }
    /// Passes the event on.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        eachInline(.willRedirect) { $0.request(request, willRedirectTo: newRequest, for: response) }
        guard queuedEvents.contains(.willRedirect) else { return }
        enqueue(.willRedirect) { $0.request(request, willRedirectTo: newRequest, for: response) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>
    ) {
        eachInline(.didValidateRequest) {
            $0.request(request, didValidateRequest: httpRequest, response: response, withResult: result)
        }
        guard queuedEvents.contains(.didValidateRequest) else { return }
        enqueue(.didValidateRequest) {
            $0.request(request, didValidateRequest: httpRequest, response: response, withResult: result)
        }
    }
    /// Passes the event on.
    public func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {
        eachInline(.didDecideRetry) { $0.request(request, didDecideRetry: decision, dueTo: error) }
        guard queuedEvents.contains(.didDecideRetry) else { return }
        enqueue(.didDecideRetry) { $0.request(request, didDecideRetry: decision, dueTo: error) }
    }
    /// Passes the event on.
    public func requestIsRetrying(_ request: Request) {
        eachInline(.isRetrying) { $0.requestIsRetrying(request) }
        guard queuedEvents.contains(.isRetrying) else { return }
        enqueue(.isRetrying) { $0.requestIsRetrying(request) }
    }
    /// Passes the event on.
    public func requestRetryWasRefusedByBudget(_ request: Request) {
        eachInline(.retryWasRefusedByBudget) { $0.requestRetryWasRefusedByBudget(request) }
        guard queuedEvents.contains(.retryWasRefusedByBudget) else { return }
        enqueue(.retryWasRefusedByBudget) { $0.requestRetryWasRefusedByBudget(request) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didInjectFault fault: InjectedFault) {
        eachInline(.didInjectFault) { $0.request(request, didInjectFault: fault) }
        guard queuedEvents.contains(.didInjectFault) else { return }
        enqueue(.didInjectFault) { $0.request(request, didInjectFault: fault) }
    }
    /// Passes the event on.
    public func requestDidResume(_ request: Request) {
        eachInline(.didResume) { $0.requestDidResume(request) }
        guard queuedEvents.contains(.didResume) else { return }
        enqueue(.didResume) { $0.requestDidResume(request) }
    }
    /// Passes the event on.
    public func requestDidSuspend(_ request: Request) {
        eachInline(.didSuspend) { $0.requestDidSuspend(request) }
        guard queuedEvents.contains(.didSuspend) else { return }
        enqueue(.didSuspend) { $0.requestDidSuspend(request) }
    }
    /// Passes the event on.
    public func requestDidCancel(_ request: Request) {
        eachInline(.didCancel) { $0.requestDidCancel(request) }
        guard queuedEvents.contains(.didCancel) else { return }
        enqueue(.didCancel) { $0.requestDidCancel(request) }
    }
    /// Passes the event on.
    public func requestDidFinish(_ request: Request) {
        eachInline(.didFinish) { $0.requestDidFinish(request) }
        guard queuedEvents.contains(.didFinish) else { return }
        enqueue(.didFinish) { $0.requestDidFinish(request) }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(
        _ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>
    ) {
        eachInline(.didParseResponse) { $0.request(request, didParseResponse: response) }
        guard queuedEvents.contains(.didParseResponse) else { return }
        enqueue(.didParseResponse) { $0.request(request, didParseResponse: response) }
    }
    /// Passes the event on.
    public func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>) {
        eachInline(.didFinishDownloading) { $0.request(request, didFinishDownloadingWith: result) }
        guard queuedEvents.contains(.didFinishDownloading) else { return }
        enqueue(.didFinishDownloading) { $0.request(request, didFinishDownloadingWith: result) }
    }
    /// Passes the event on.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        eachInline(.didCreateDestinationURL) { $0.request(request, didCreateDestinationURL: url) }
        guard queuedEvents.contains(.didCreateDestinationURL) else { return }
        enqueue(.didCreateDestinationURL) { $0.request(request, didCreateDestinationURL: url) }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>
    ) {
        eachInline(.didParseDownloadResponse) { $0.request(request, didParseResponse: response) }
        guard queuedEvents.contains(.didParseDownloadResponse) else { return }
        enqueue(.didParseDownloadResponse) { $0.request(request, didParseResponse: response) }
    }
    /// Passes the event on.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable) {
        eachInline(.didCreateUploadable) { $0.request(request, didCreateUploadable: uploadable) }
        guard queuedEvents.contains(.didCreateUploadable) else { return }
        enqueue(.didCreateUploadable) { $0.request(request, didCreateUploadable: uploadable) }
    }
    /// Passes the event on.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError) {
        eachInline(.didFailToCreateUploadable) { $0.request(request, didFailToCreateUploadableWithError: error) }
        guard queuedEvents.contains(.didFailToCreateUploadable) else { return }
        enqueue(.didFailToCreateUploadable) { $0.request(request, didFailToCreateUploadableWithError: error) }
    }
    /// Passes the event on.
    public func request(
        _ request: UploadRequest, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64?
    ) {
        eachInline(.didSendBodyData) {
            $0.request(
                request, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
        guard queuedEvents.contains(.didSendBodyData) else { return }
        enqueue(.didSendBodyData) {
            $0.request(
                request, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(_ request: DataStreamRequest, didParseStream result: Result<Value, WickError>)
    {
        eachInline(.didParseStream) { $0.request(request, didParseStream: result) }
        guard queuedEvents.contains(.didParseStream) else { return }
        enqueue(.didParseStream) { $0.request(request, didParseStream: result) }
    }
}
