// Watching requests: Alamofire's EventMonitor, with the events of Wick's own transport.
public import Dispatch
public import FoundationEssentials

/// Receives the events of every request of a `Session` (Alamofire's `EventMonitor`), on its own
/// `queue`. Every method has an empty default, so a monitor implements only what it watches.
///
/// The order for one attempt: `didCreateInitialRequest` (once), `requestDidResume`,
/// `didAdaptInitialRequest` (or `didFailToAdaptRequest`), then for each exchange `willSend`,
/// `didEvaluateServerTrust` (on a new TLS connection), `didAcquireConnection`, `didReceiveCachedResponse` (when the session's cache answered or a 304 confirmed it), `didReceiveResponse`, `didGatherMetrics`, then `willRedirect` and
/// again from `willSend` for a redirect hop (or a challenge answer); `didValidate` for each
/// validation; `didDecideRetry` when the attempt failed, then `requestIsRetrying` and the next
/// attempt from `didAdaptInitialRequest` (or `requestRetryWasRefusedByBudget` when the session's
/// `RetryBudget` refuses the retry); and once, `requestDidFinish` (for a download, after
/// `didFinishDownloading` and, when its file was moved, `didCreateDestinationURL`). Then
/// `didParseResponse` for each response handler. `requestDidSuspend` and `requestDidCancel` come
/// when called.
///
/// `didEvaluateServerTrust` and `didAcquireConnection` are reported the moment the pool gives the
/// exchange its connection, so an exchange that then fails reports them too, and a replay on a
/// fresh connection reports its second connection. (A session none of whose monitors handles
/// either event skips this callback altogether; see `handledEvents`.)
public protocol EventMonitor: Sendable {
    /// The queue the events are delivered on, in order. Default: one serial queue shared by all
    /// monitors that keep the default (never the main queue, which a daemon may not drain).
    var queue: DispatchQueue { get }

    /// Whether events are delivered at once, on the thread that produces them (one of the
    /// session's event loops, its root queue, or the task that resumed the request), instead of
    /// on `queue`. Default false, as in Alamofire. For a monitor whose handling is short and
    /// thread-safe (counting, recording on a span), it saves a closure dispatched to the queue
    /// and a thread wake-up per event. One request's events still come in the order above, each
    /// after the one before has returned; different requests' events may come at the same time
    /// on different threads. Handling runs on the request's path: a monitor that blocks, or that
    /// waits for another request, stalls it (and, on an event loop, the loop's other requests).
    var receivesEventsInline: Bool { get }

    /// The events this monitor handles; it is sent no others. Default `.all`. Read once, when
    /// the session (its `CompositeEventMonitor`) is made. A monitor that names the few events it
    /// implements saves every other event's call, and lets a request skip building an event
    /// nobody asked for: a session whose monitors all leave out `didAcquireConnection` and
    /// `didEvaluateServerTrust` gives its exchanges no connection callback.
    var handledEvents: EventMonitorEvents { get }

    /// The request was created, before any adaptation.
    func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest)
    /// The request could not be created (an invalid URL, a parameter encoding failure).
    func request(_ request: Request, didFailToCreateRequestWithError error: WickError)
    /// The adapters turned `initialRequest` into `adaptedRequest`.
    func request(_ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest)
    /// An adapter failed.
    func request(_ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError)
    /// `httpRequest` is about to go to the transport (each attempt and each redirect hop).
    func request(_ request: Request, willSend httpRequest: HTTPRequest)
    /// The exchange got a new TLS connection whose server `evaluation` accepted (reported with
    /// `didAcquireConnection`, just before it), or failed because `evaluation` refused the
    /// server; a reused connection was evaluated once, when it was new.
    func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation)
    /// The exchange got `connection` (new or reused; its addresses and TLS parameters), at the
    /// moment the pool leased it.
    func request(_ request: Request, didAcquireConnection connection: ConnectionInfo)
    /// The response came from the session's response cache: `source` is `.cache` when no
    /// request was sent (nor `willSend` told), `.revalidatedCache` when the server confirmed
    /// the stored response with a `304`. `didReceiveResponse` follows.
    func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource)
    /// The background revalidation that serving `request` a stale response started
    /// (`ResponseSource.staleWhileRevalidating`, RFC 5861 §3) ended, after `request` finished:
    /// `.success` with the exchange's metrics (`responseSource` `.revalidatedCache` when a 304
    /// refreshed the stored response, `.network` when the server sent another one, which was
    /// stored if storable), or `.failure` with the error, which reached no caller.
    func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>)
    /// The transport answered `httpRequest` with `response` (the head; the body has arrived too).
    func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int)
    /// The metrics of every exchange so far are known (after each exchange).
    func request(_ request: Request, didGatherMetrics metrics: RequestMetrics)
    /// `response` redirects to `newRequest`, which will be sent.
    func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse)
    /// A validation ran on `response`.
    func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>)
    /// An attempt failed with `error` and the retriers decided `decision`.
    func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError)
    /// The request is being retried (`retryCount` already counts this retry).
    func requestIsRetrying(_ request: Request)
    /// The retriers decided to retry, but the session's `RetryBudget` refused: the request
    /// finishes with the attempt's error.
    func requestRetryWasRefusedByBudget(_ request: Request)
    /// The session's `FaultInjector` injected `fault` into one of the request's exchanges, or
    /// into the dial of a connection it waited for (a connect fault). Told when the exchange
    /// ends, before its `didReceiveResponse` or its failure's `didDecideRetry`.
    func request(_ request: Request, didInjectFault fault: InjectedFault)
    /// `resume()` started or continued the request.
    func requestDidResume(_ request: Request)
    /// `suspend()` held the request.
    func requestDidSuspend(_ request: Request)
    /// `cancel()` cancelled the request.
    func requestDidCancel(_ request: Request)
    /// The request's outcome is known (`request.error` is nil on success).
    func requestDidFinish(_ request: Request)
    /// A response handler serialized the outcome into `response`.
    func request<Value: Sendable>(_ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>)
    /// A download's transfer ended: `result` is the temporary file holding the whole response
    /// body (validation failures included), or why there is none.
    func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>)
    /// A download's file reached its destination, `url`.
    func request(_ request: DownloadRequest, didCreateDestinationURL url: URL)
    /// A download's response handler produced `response`.
    func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>)
    /// An upload's body source was made for a send (each attempt and each hop that resends it).
    func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable)
    /// An upload's body could not be made (an unreadable file, a stream already read): the
    /// attempt fails with `error`.
    func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError)
    /// An upload sent `bytesSent` more body bytes: `totalBytesSent` in this send so far, of
    /// `totalBytesExpectedToSend` when the length is known (a resend starts again from 0).
    func request(
        _ request: UploadRequest, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64?)
    /// A stream's handler got `result`, one element of the body (a chunk, text, a value, or a
    /// refusal).
    func request<Value: Sendable>(_ request: DataStreamRequest, didParseStream result: Result<Value, WickError>)
}

extension EventMonitor {
    /// A serial queue shared by every monitor that does not choose its own.
    public var queue: DispatchQueue { EventMonitorQueue.shared }

    /// False: events are delivered on `queue`.
    public var receivesEventsInline: Bool { false }

    /// Every event, as Alamofire delivers them.
    public var handledEvents: EventMonitorEvents { .all }

    /// Does nothing.
    public func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didFailToCreateRequestWithError error: WickError) {}
    /// Does nothing.
    public func request(
        _ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest
    ) {}
    /// Does nothing.
    public func request(
        _ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError
    ) {}
    /// Does nothing.
    public func request(_ request: Request, willSend httpRequest: HTTPRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {}
    /// Does nothing.
    public func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {}
    /// Does nothing.
    public func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource) {}
    /// Does nothing.
    public func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>) {}
    /// Does nothing.
    public func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {}
    /// Does nothing.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {}
    /// Does nothing.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {}
    /// Does nothing.
    public func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>
    ) {}
    /// Does nothing.
    public func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {}
    /// Does nothing.
    public func requestIsRetrying(_ request: Request) {}
    /// Does nothing.
    public func requestRetryWasRefusedByBudget(_ request: Request) {}
    /// Does nothing.
    public func request(_ request: Request, didInjectFault fault: InjectedFault) {}
    /// Does nothing.
    public func requestDidResume(_ request: Request) {}
    /// Does nothing.
    public func requestDidSuspend(_ request: Request) {}
    /// Does nothing.
    public func requestDidCancel(_ request: Request) {}
    /// Does nothing.
    public func requestDidFinish(_ request: Request) {}
    /// Does nothing.
    public func request<Value: Sendable>(
        _ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>
    ) {}
    /// Does nothing.
    public func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>) {}
    /// Does nothing.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {}
    /// Does nothing.
    public func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>
    ) {}
    /// Does nothing.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable) {}
    /// Does nothing.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError) {}
    /// Does nothing.
    public func request(
        _ request: UploadRequest, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64?
    ) {}
    /// Does nothing.
    public func request<Value: Sendable>(_ request: DataStreamRequest, didParseStream result: Result<Value, WickError>)
    {}
}

/// The default queue of `EventMonitor`s.
enum EventMonitorQueue {
    static let shared = DispatchQueue(label: "wick.event-monitor")
}
