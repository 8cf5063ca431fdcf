// Fans every event out to a Session's monitors, each on its own queue.
import Dispatch
public import FoundationEssentials

/// Hands each event to every monitor, asynchronously on the monitor's own queue (Alamofire's
/// `CompositeEventMonitor`), or at once to a monitor that `receivesEventsInline`. A Session's
/// `eventMonitor` is one of these.
public final class CompositeEventMonitor: EventMonitor {
    /// The monitors, in the order events reach them.
    public let monitors: [any EventMonitor]

    /// A composite of `monitors`.
    public init(monitors: [any EventMonitor]) {
        self.monitors = monitors
    }

    /// Hands `event` to every monitor, on its queue or at once (`receivesEventsInline`). Every
    /// caller returns first when there is no monitor, so that a session without monitors does
    /// not allocate the event's closure.
    private func each(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        for monitor in monitors {
            if monitor.receivesEventsInline {
                event(monitor)
            } else {
                monitor.queue.async { event(monitor) }
            }
        }
    }

    /// Passes the event on.
    public func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didCreateInitialRequest: initialRequest) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didFailToCreateRequestWithError error: WickError) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didFailToCreateRequestWithError: error) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest
    ) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError
    ) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didFailToAdaptRequest: initialRequest, withError: error) }
    }
    /// Passes the event on.
    public func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, willSend: httpRequest) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didEvaluateServerTrust: evaluation) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didAcquireConnection: connection) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didReceiveCachedResponse: response, source: source) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didRevalidateInBackground: result) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didReceiveResponse: response, bodyByteCount: bodyByteCount) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didGatherMetrics: metrics) }
    }
    /// Passes the event on.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, willRedirectTo: newRequest, for: response) }
    }
    /// Passes the event on.
    public func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>
    ) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didValidateRequest: httpRequest, response: response, withResult: result) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didDecideRetry: decision, dueTo: error) }
    }
    /// Passes the event on.
    public func requestIsRetrying(_ request: Request) {
        guard !monitors.isEmpty else { return }
        each { $0.requestIsRetrying(request) }
    }
    /// Passes the event on.
    public func requestRetryWasRefusedByBudget(_ request: Request) {
        guard !monitors.isEmpty else { return }
        each { $0.requestRetryWasRefusedByBudget(request) }
    }
    /// Passes the event on.
    public func request(_ request: Request, didInjectFault fault: InjectedFault) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didInjectFault: fault) }
    }
    /// Passes the event on.
    public func requestDidResume(_ request: Request) {
        guard !monitors.isEmpty else { return }
        each { $0.requestDidResume(request) }
    }
    /// Passes the event on.
    public func requestDidSuspend(_ request: Request) {
        guard !monitors.isEmpty else { return }
        each { $0.requestDidSuspend(request) }
    }
    /// Passes the event on.
    public func requestDidCancel(_ request: Request) {
        guard !monitors.isEmpty else { return }
        each { $0.requestDidCancel(request) }
    }
    /// Passes the event on.
    public func requestDidFinish(_ request: Request) {
        guard !monitors.isEmpty else { return }
        each { $0.requestDidFinish(request) }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(
        _ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>
    ) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didParseResponse: response) }
    }
    /// Passes the event on.
    public func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didFinishDownloadingWith: result) }
    }
    /// Passes the event on.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didCreateDestinationURL: url) }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>
    ) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didParseResponse: response) }
    }
    /// Passes the event on.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didCreateUploadable: uploadable) }
    }
    /// Passes the event on.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError) {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didFailToCreateUploadableWithError: error) }
    }
    /// Passes the event on.
    public func request(
        _ request: UploadRequest, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64?
    ) {
        guard !monitors.isEmpty else { return }
        each {
            $0.request(
                request, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
    }
    /// Passes the event on.
    public func request<Value: Sendable>(_ request: DataStreamRequest, didParseStream result: Result<Value, WickError>)
    {
        guard !monitors.isEmpty else { return }
        each { $0.request(request, didParseStream: result) }
    }
}
