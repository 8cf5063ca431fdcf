// An event monitor made of closures, one optional closure per event (Alamofire's).
public import Dispatch
public import FoundationEssentials
import WickReactor

/// An `EventMonitor` whose events call closures set on it, one optional property per event
/// (Alamofire's `ClosureEventMonitor`). A closure left nil ignores its event. The closures and
/// `queue` may be set at any time, from any thread; an event uses what is set when it is
/// delivered.
///
/// ```swift
/// let monitor = ClosureEventMonitor()
/// monitor.requestDidFinish = { request in print(request) }
/// let session = Session(eventMonitors: [monitor])
/// ```
public final class ClosureEventMonitor: EventMonitor {
    private struct Closures {
        var queue: DispatchQueue
        var requestDidCreateInitialRequest: (@Sendable (Request, HTTPRequest) -> Void)?
        var requestDidFailToCreateRequestWithError: (@Sendable (Request, WickError) -> Void)?
        var requestDidAdaptInitialRequestToAdaptedRequest: (@Sendable (Request, HTTPRequest, HTTPRequest) -> Void)?
        var requestDidFailToAdaptRequestWithError: (@Sendable (Request, HTTPRequest, WickError) -> Void)?
        var requestWillSend: (@Sendable (Request, HTTPRequest) -> Void)?
        var requestDidEvaluateServerTrust: (@Sendable (Request, ServerTrustEvaluation) -> Void)?
        var requestDidAcquireConnection: (@Sendable (Request, ConnectionInfo) -> Void)?
        var requestDidReceiveCachedResponse: (@Sendable (Request, HTTPResponse, ResponseSource) -> Void)?
        var requestDidRevalidateInBackground: (@Sendable (Request, Result<TransactionMetrics, WickError>) -> Void)?
        var requestDidReceiveResponse: (@Sendable (Request, HTTPResponse, Int) -> Void)?
        var requestDidGatherMetrics: (@Sendable (Request, RequestMetrics) -> Void)?
        var requestWillRedirect: (@Sendable (Request, HTTPRequest, HTTPResponse) -> Void)?
        var requestDidValidateRequestResponseWithResult:
            (@Sendable (Request, HTTPRequest?, HTTPResponse, Result<Void, WickError>) -> Void)?
        var requestDidDecideRetry: (@Sendable (Request, RetryResult, WickError) -> Void)?
        var requestIsRetrying: (@Sendable (Request) -> Void)?
        var requestRetryWasRefusedByBudget: (@Sendable (Request) -> Void)?
        var requestDidInjectFault: (@Sendable (Request, InjectedFault) -> Void)?
        var requestDidResume: (@Sendable (Request) -> Void)?
        var requestDidSuspend: (@Sendable (Request) -> Void)?
        var requestDidCancel: (@Sendable (Request) -> Void)?
        var requestDidFinish: (@Sendable (Request) -> Void)?
        var requestDidParseResponse: (@Sendable (DataRequest, DataResponse<any Sendable, WickError>) -> Void)?
        var downloadDidFinishDownloading: (@Sendable (DownloadRequest, Result<URL, WickError>) -> Void)?
        var downloadDidCreateDestinationURL: (@Sendable (DownloadRequest, URL) -> Void)?
        var downloadDidParseResponse: (@Sendable (DownloadRequest, DownloadResponse<any Sendable, WickError>) -> Void)?
        var uploadDidCreateUploadable: (@Sendable (UploadRequest, Uploadable) -> Void)?
        var uploadDidFailToCreateUploadableWithError: (@Sendable (UploadRequest, WickError) -> Void)?
        var uploadDidSendBodyData: (@Sendable (UploadRequest, Int64, Int64, Int64?) -> Void)?
        var requestDidParseStream: (@Sendable (DataStreamRequest, Result<any Sendable, WickError>) -> Void)?
    }

    private let closures: Locked<Closures>

    /// A monitor with no closure set, delivering its events on `queue` (nil: the queue shared
    /// by monitors that keep the default).
    public init(queue: DispatchQueue? = nil) {
        closures = Locked(Closures(queue: queue ?? EventMonitorQueue.shared))
    }

    private subscript<Value: Sendable>(_ keyPath: WritableKeyPath<Closures, Value>) -> Value {
        get { closures.withLock { $0[keyPath: keyPath] } }
        set { closures.withLock { $0[keyPath: keyPath] = newValue } }
    }

    /// The queue the events are delivered on.
    public var queue: DispatchQueue {
        get { self[\.queue] }
        set { self[\.queue] = newValue }
    }

    /// Called by `request(_:didCreateInitialRequest:)`.
    public var requestDidCreateInitialRequest: (@Sendable (Request, HTTPRequest) -> Void)? {
        get { self[\.requestDidCreateInitialRequest] }
        set { self[\.requestDidCreateInitialRequest] = newValue }
    }
    /// Called by `request(_:didFailToCreateRequestWithError:)`.
    public var requestDidFailToCreateRequestWithError: (@Sendable (Request, WickError) -> Void)? {
        get { self[\.requestDidFailToCreateRequestWithError] }
        set { self[\.requestDidFailToCreateRequestWithError] = newValue }
    }
    /// Called by `request(_:didAdaptInitialRequest:to:)`.
    public var requestDidAdaptInitialRequestToAdaptedRequest: (@Sendable (Request, HTTPRequest, HTTPRequest) -> Void)? {
        get { self[\.requestDidAdaptInitialRequestToAdaptedRequest] }
        set { self[\.requestDidAdaptInitialRequestToAdaptedRequest] = newValue }
    }
    /// Called by `request(_:didFailToAdaptRequest:withError:)`.
    public var requestDidFailToAdaptRequestWithError: (@Sendable (Request, HTTPRequest, WickError) -> Void)? {
        get { self[\.requestDidFailToAdaptRequestWithError] }
        set { self[\.requestDidFailToAdaptRequestWithError] = newValue }
    }
    /// Called by `request(_:willSend:)`.
    public var requestWillSend: (@Sendable (Request, HTTPRequest) -> Void)? {
        get { self[\.requestWillSend] }
        set { self[\.requestWillSend] = newValue }
    }
    /// Called by `request(_:didEvaluateServerTrust:)`.
    public var requestDidEvaluateServerTrust: (@Sendable (Request, ServerTrustEvaluation) -> Void)? {
        get { self[\.requestDidEvaluateServerTrust] }
        set { self[\.requestDidEvaluateServerTrust] = newValue }
    }
    /// Called by `request(_:didAcquireConnection:)`.
    public var requestDidAcquireConnection: (@Sendable (Request, ConnectionInfo) -> Void)? {
        get { self[\.requestDidAcquireConnection] }
        set { self[\.requestDidAcquireConnection] = newValue }
    }
    /// Called by `request(_:didReceiveCachedResponse:source:)`.
    public var requestDidReceiveCachedResponse: (@Sendable (Request, HTTPResponse, ResponseSource) -> Void)? {
        get { self[\.requestDidReceiveCachedResponse] }
        set { self[\.requestDidReceiveCachedResponse] = newValue }
    }
    /// Called by `request(_:didRevalidateInBackground:)`.
    public var requestDidRevalidateInBackground: (@Sendable (Request, Result<TransactionMetrics, WickError>) -> Void)? {
        get { self[\.requestDidRevalidateInBackground] }
        set { self[\.requestDidRevalidateInBackground] = newValue }
    }
    /// Called by `request(_:didReceiveResponse:bodyByteCount:)` with the body's size.
    public var requestDidReceiveResponse: (@Sendable (Request, HTTPResponse, Int) -> Void)? {
        get { self[\.requestDidReceiveResponse] }
        set { self[\.requestDidReceiveResponse] = newValue }
    }
    /// Called by `request(_:didGatherMetrics:)`.
    public var requestDidGatherMetrics: (@Sendable (Request, RequestMetrics) -> Void)? {
        get { self[\.requestDidGatherMetrics] }
        set { self[\.requestDidGatherMetrics] = newValue }
    }
    /// Called by `request(_:willRedirectTo:for:)` with the new request and the response.
    public var requestWillRedirect: (@Sendable (Request, HTTPRequest, HTTPResponse) -> Void)? {
        get { self[\.requestWillRedirect] }
        set { self[\.requestWillRedirect] = newValue }
    }
    /// Called by `request(_:didValidateRequest:response:withResult:)`.
    public var requestDidValidateRequestResponseWithResult:
        (@Sendable (Request, HTTPRequest?, HTTPResponse, Result<Void, WickError>) -> Void)?
    {
        get { self[\.requestDidValidateRequestResponseWithResult] }
        set { self[\.requestDidValidateRequestResponseWithResult] = newValue }
    }
    /// Called by `request(_:didDecideRetry:dueTo:)`.
    public var requestDidDecideRetry: (@Sendable (Request, RetryResult, WickError) -> Void)? {
        get { self[\.requestDidDecideRetry] }
        set { self[\.requestDidDecideRetry] = newValue }
    }
    /// Called by `requestIsRetrying(_:)`.
    public var requestIsRetrying: (@Sendable (Request) -> Void)? {
        get { self[\.requestIsRetrying] }
        set { self[\.requestIsRetrying] = newValue }
    }
    /// Called by `requestRetryWasRefusedByBudget(_:)`.
    public var requestRetryWasRefusedByBudget: (@Sendable (Request) -> Void)? {
        get { self[\.requestRetryWasRefusedByBudget] }
        set { self[\.requestRetryWasRefusedByBudget] = newValue }
    }
    /// Called by `request(_:didInjectFault:)`.
    public var requestDidInjectFault: (@Sendable (Request, InjectedFault) -> Void)? {
        get { self[\.requestDidInjectFault] }
        set { self[\.requestDidInjectFault] = newValue }
    }
    /// Called by `requestDidResume(_:)`.
    public var requestDidResume: (@Sendable (Request) -> Void)? {
        get { self[\.requestDidResume] }
        set { self[\.requestDidResume] = newValue }
    }
    /// Called by `requestDidSuspend(_:)`.
    public var requestDidSuspend: (@Sendable (Request) -> Void)? {
        get { self[\.requestDidSuspend] }
        set { self[\.requestDidSuspend] = newValue }
    }
    /// Called by `requestDidCancel(_:)`.
    public var requestDidCancel: (@Sendable (Request) -> Void)? {
        get { self[\.requestDidCancel] }
        set { self[\.requestDidCancel] = newValue }
    }
    /// Called by `requestDidFinish(_:)`.
    public var requestDidFinish: (@Sendable (Request) -> Void)? {
        get { self[\.requestDidFinish] }
        set { self[\.requestDidFinish] = newValue }
    }
    /// Called by `request(_:didFinishDownloadingWith:)`.
    public var downloadDidFinishDownloading: (@Sendable (DownloadRequest, Result<URL, WickError>) -> Void)? {
        get { self[\.downloadDidFinishDownloading] }
        set { self[\.downloadDidFinishDownloading] = newValue }
    }
    /// Called by `request(_:didCreateDestinationURL:)`.
    public var downloadDidCreateDestinationURL: (@Sendable (DownloadRequest, URL) -> Void)? {
        get { self[\.downloadDidCreateDestinationURL] }
        set { self[\.downloadDidCreateDestinationURL] = newValue }
    }
    /// Called by a download's `request(_:didParseResponse:)`, the response's value type erased.
    public var downloadDidParseResponse:
        (@Sendable (DownloadRequest, DownloadResponse<any Sendable, WickError>) -> Void)?
    {
        get { self[\.downloadDidParseResponse] }
        set { self[\.downloadDidParseResponse] = newValue }
    }
    /// Called by `request(_:didCreateUploadable:)`.
    public var uploadDidCreateUploadable: (@Sendable (UploadRequest, Uploadable) -> Void)? {
        get { self[\.uploadDidCreateUploadable] }
        set { self[\.uploadDidCreateUploadable] = newValue }
    }
    /// Called by `request(_:didFailToCreateUploadableWithError:)`.
    public var uploadDidFailToCreateUploadableWithError: (@Sendable (UploadRequest, WickError) -> Void)? {
        get { self[\.uploadDidFailToCreateUploadableWithError] }
        set { self[\.uploadDidFailToCreateUploadableWithError] = newValue }
    }
    /// Called by `request(_:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`.
    public var uploadDidSendBodyData: (@Sendable (UploadRequest, Int64, Int64, Int64?) -> Void)? {
        get { self[\.uploadDidSendBodyData] }
        set { self[\.uploadDidSendBodyData] = newValue }
    }
    /// Called by `request(_:didParseStream:)`, the element's type erased.
    public var requestDidParseStream: (@Sendable (DataStreamRequest, Result<any Sendable, WickError>) -> Void)? {
        get { self[\.requestDidParseStream] }
        set { self[\.requestDidParseStream] = newValue }
    }
    /// Called by `request(_:didParseResponse:)`, the response's value type erased.
    public var requestDidParseResponse: (@Sendable (DataRequest, DataResponse<any Sendable, WickError>) -> Void)? {
        get { self[\.requestDidParseResponse] }
        set { self[\.requestDidParseResponse] = newValue }
    }

    // MARK: EventMonitor

    /// Calls `requestDidCreateInitialRequest`.
    public func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) {
        requestDidCreateInitialRequest?(request, initialRequest)
    }
    /// Calls `requestDidFailToCreateRequestWithError`.
    public func request(_ request: Request, didFailToCreateRequestWithError error: WickError) {
        requestDidFailToCreateRequestWithError?(request, error)
    }
    /// Calls `requestDidAdaptInitialRequestToAdaptedRequest`.
    public func request(
        _ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest
    ) {
        requestDidAdaptInitialRequestToAdaptedRequest?(request, initialRequest, adaptedRequest)
    }
    /// Calls `requestDidFailToAdaptRequestWithError`.
    public func request(
        _ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError
    ) {
        requestDidFailToAdaptRequestWithError?(request, initialRequest, error)
    }
    /// Calls `requestWillSend`.
    public func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        requestWillSend?(request, httpRequest)
    }
    /// Calls `requestDidEvaluateServerTrust`.
    public func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        requestDidEvaluateServerTrust?(request, evaluation)
    }
    /// Calls `requestDidAcquireConnection`.
    public func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        requestDidAcquireConnection?(request, connection)
    }
    /// Calls `requestDidReceiveCachedResponse`.
    public func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource) {
        requestDidReceiveCachedResponse?(request, response, source)
    }
    /// Calls `requestDidRevalidateInBackground`.
    public func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>) {
        requestDidRevalidateInBackground?(request, result)
    }
    /// Calls `requestDidReceiveResponse`.
    public func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        requestDidReceiveResponse?(request, response, bodyByteCount)
    }
    /// Calls `requestDidGatherMetrics`.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        requestDidGatherMetrics?(request, metrics)
    }
    /// Calls `requestWillRedirect`.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        requestWillRedirect?(request, newRequest, response)
    }
    /// Calls `requestDidValidateRequestResponseWithResult`.
    public func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>
    ) {
        requestDidValidateRequestResponseWithResult?(request, httpRequest, response, result)
    }
    /// Calls `requestDidDecideRetry`.
    public func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {
        requestDidDecideRetry?(request, decision, error)
    }
    /// Calls `requestIsRetrying`.
    public func requestIsRetrying(_ request: Request) {
        requestIsRetrying?(request)
    }
    /// Calls `requestRetryWasRefusedByBudget`.
    public func requestRetryWasRefusedByBudget(_ request: Request) {
        requestRetryWasRefusedByBudget?(request)
    }
    /// Calls `requestDidInjectFault`.
    public func request(_ request: Request, didInjectFault fault: InjectedFault) {
        requestDidInjectFault?(request, fault)
    }
    /// Calls `requestDidResume`.
    public func requestDidResume(_ request: Request) {
        requestDidResume?(request)
    }
    /// Calls `requestDidSuspend`.
    public func requestDidSuspend(_ request: Request) {
        requestDidSuspend?(request)
    }
    /// Calls `requestDidCancel`.
    public func requestDidCancel(_ request: Request) {
        requestDidCancel?(request)
    }
    /// Calls `requestDidFinish`.
    public func requestDidFinish(_ request: Request) {
        requestDidFinish?(request)
    }
    /// Calls `requestDidParseResponse` with the value as `any Sendable`.
    public func request<Value: Sendable>(
        _ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>
    ) {
        guard let requestDidParseResponse else { return }
        requestDidParseResponse(request, response.map { $0 as any Sendable })
    }
    /// Calls `downloadDidFinishDownloading`.
    public func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>) {
        downloadDidFinishDownloading?(request, result)
    }
    /// Calls `downloadDidCreateDestinationURL`.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        downloadDidCreateDestinationURL?(request, url)
    }
    /// Calls `downloadDidParseResponse` with the value as `any Sendable`.
    public func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>
    ) {
        guard let downloadDidParseResponse else { return }
        downloadDidParseResponse(request, response.map { $0 as any Sendable })
    }
    /// Calls `uploadDidCreateUploadable`.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable) {
        uploadDidCreateUploadable?(request, uploadable)
    }
    /// Calls `uploadDidFailToCreateUploadableWithError`.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError) {
        uploadDidFailToCreateUploadableWithError?(request, error)
    }
    /// Calls `uploadDidSendBodyData`.
    public func request(
        _ request: UploadRequest, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64?
    ) {
        uploadDidSendBodyData?(request, bytesSent, totalBytesSent, totalBytesExpectedToSend)
    }
    /// Calls `requestDidParseStream` with the element as `any Sendable`.
    public func request<Value: Sendable>(_ request: DataStreamRequest, didParseStream result: Result<Value, WickError>)
    {
        guard let requestDidParseStream else { return }
        requestDidParseStream(request, result.map { $0 as any Sendable })
    }
}
