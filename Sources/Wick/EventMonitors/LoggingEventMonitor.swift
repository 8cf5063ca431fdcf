// An event monitor that writes one line per event to a sink, standard error by default.
public import Dispatch
public import FoundationEssentials
import WickReactor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes one line per event (no newline; the sink adds its own) through `sink`, on `queue`, so
/// the lines of one monitor come in event order. `level` chooses how much: each request's
/// outcome, with each exchange's metrics, or every event. No logging framework is involved;
/// pass a sink that forwards to yours.
///
/// ```swift
/// let session = Session(eventMonitors: [LoggingEventMonitor(level: .metrics)])
/// // wick: GET http://127.0.0.1:8080/get → 200
/// ```
public struct LoggingEventMonitor: EventMonitor {
    /// How much a `LoggingEventMonitor` writes.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// One line per request, when it finishes: its method, URL and status or error.
        case requests
        /// Also one line per exchange with its `TransactionMetrics` (connection, timings, bytes).
        case metrics
        /// Every event.
        case all

        /// Orders by verbosity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What this monitor writes.
    public let level: Level
    /// The queue the events (and so the sink's calls) run on.
    public let queue: DispatchQueue
    private let sink: @Sendable (String) -> Void

    /// A monitor writing `level`'s lines to `sink` (default: standard error), on `queue` (nil:
    /// the queue shared by monitors that keep the default).
    public init(
        level: Level = .requests, queue: DispatchQueue? = nil,
        sink: @escaping @Sendable (String) -> Void = LoggingEventMonitor.standardError
    ) {
        self.level = level
        self.queue = queue ?? EventMonitorQueue.shared
        self.sink = sink
    }

    /// Writes `line` and a newline to standard error in one `write(2)` when the kernel takes it
    /// whole (so lines from several threads do not interleave), the rest in further writes.
    /// A failure is dropped: standard error is gone or full, and a log line is not worth
    /// blocking or failing for.
    public static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        try? FileIO.system.writeAll(STDERR_FILENO, bytes, path: "standard error")
    }

    /// Writes the line `make` returns when `level` reaches `minimum`; nothing is formatted below it.
    private func log(_ minimum: Level, _ make: () -> String) {
        guard level >= minimum else { return }
        sink("wick: " + make())
    }

    private static func name(_ request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.url.absoluteString)"
    }

    private static func name(_ request: Request) -> String {
        request.request.map(name) ?? "(request not built)"
    }

    // MARK: requests

    /// `GET http://host/path → 200`, or `GET http://host/path → failed: <error>`.
    public func requestDidFinish(_ request: Request) {
        log(.requests) {
            let name = Self.name(request)
            if let error = request.error { return "\(name) → failed: \(error)" }
            return "\(name) → \(request.response.map { String($0.statusCode) } ?? "no response")"
        }
    }

    /// `could not create a request: <error>`.
    public func request(_ request: Request, didFailToCreateRequestWithError error: WickError) {
        log(.requests) { "could not create a request: \(error)" }
    }

    // MARK: metrics

    /// `metrics: <the last exchange's TransactionMetrics>`.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        log(.metrics) { "metrics: \(metrics.last)" }
    }

    // MARK: all

    /// `created GET http://host/path`.
    public func request(_ request: Request, didCreateInitialRequest initialRequest: HTTPRequest) {
        log(.all) { "created \(Self.name(initialRequest))" }
    }
    /// `adapted GET http://host/a → GET http://host/b`.
    public func request(
        _ request: Request, didAdaptInitialRequest initialRequest: HTTPRequest, to adaptedRequest: HTTPRequest
    ) {
        log(.all) { "adapted \(Self.name(initialRequest)) → \(Self.name(adaptedRequest))" }
    }
    /// `adaptation of GET http://host/path failed: <error>`.
    public func request(
        _ request: Request, didFailToAdaptRequest initialRequest: HTTPRequest, withError error: WickError
    ) {
        log(.all) { "adaptation of \(Self.name(initialRequest)) failed: \(error)" }
    }
    /// `sending GET http://host/path`.
    public func request(_ request: Request, willSend httpRequest: HTTPRequest) {
        log(.all) { "sending \(Self.name(httpRequest))" }
    }
    /// `GET https://host/path: DefaultTrustEvaluator accepted localhost's chain of 2 certificates`,
    /// or the refusal (which the request's own line reports too, at every level).
    public func request(_ request: Request, didEvaluateServerTrust evaluation: ServerTrustEvaluation) {
        log(.all) {
            switch evaluation.result {
            case .success:
                "\(Self.name(request)): \(evaluation.evaluator) accepted \(evaluation.host)'s chain of "
                    + "\(evaluation.presentedChain.count) certificates"
                    + evaluation.reportedViolations.map { "; reported only: \($0)" }.joined()
            case .failure(let refusal): "\(Self.name(request)): \(refusal)"
            }
        }
    }
    /// `GET http://host/path on new connection 127.0.0.1:54321 → 127.0.0.1:80`.
    public func request(_ request: Request, didAcquireConnection connection: ConnectionInfo) {
        log(.all) { "\(Self.name(request)) on \(connection)" }
    }
    /// `GET http://host/path: injected #2 host: reset after 10 response bytes`.
    public func request(_ request: Request, didInjectFault fault: InjectedFault) {
        log(.all) { "\(Self.name(request)): injected \(fault)" }
    }
    /// `GET http://host/path answered from the cache` (or `from the revalidated cache`).
    public func request(_ request: Request, didReceiveCachedResponse response: HTTPResponse, source: ResponseSource) {
        log(.all) { "\(Self.name(request)) answered from the \(source)" }
    }
    /// `GET http://host/path revalidated in the background: 200 from the revalidated cache`,
    /// or `... failed: <error>`.
    public func request(_ request: Request, didRevalidateInBackground result: Result<TransactionMetrics, WickError>) {
        log(.all) {
            switch result {
            case .success(let metrics):
                "\(Self.name(request)) revalidated in the background: \(metrics.statusCode) from the \(metrics.responseSource)"
            case .failure(let error): "\(Self.name(request)) revalidation in the background failed: \(error)"
            }
        }
    }
    /// `response 200 to GET http://host/path, 1024 body bytes`.
    public func request(_ request: Request, didReceiveResponse response: HTTPResponse, bodyByteCount: Int) {
        log(.all) { "response \(response.statusCode) to \(Self.name(request)), \(bodyByteCount) body bytes" }
    }
    /// `redirect 302 → GET http://host/next`.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        log(.all) { "redirect \(response.statusCode) → \(Self.name(newRequest))" }
    }
    /// `validation of 200 passed`, or `validation of 500 failed: <error>`.
    public func request(
        _ request: Request, didValidateRequest httpRequest: HTTPRequest?, response: HTTPResponse,
        withResult result: Result<Void, WickError>
    ) {
        log(.all) {
            switch result {
            case .success: "validation of \(response.statusCode) passed"
            case .failure(let error): "validation of \(response.statusCode) failed: \(error)"
            }
        }
    }
    /// `retry decision for GET http://host/path after <error>: retry in 0.5 seconds`.
    public func request(_ request: Request, didDecideRetry decision: RetryResult, dueTo error: WickError) {
        log(.all) {
            let decided =
                switch decision {
                case .retry: "retry"
                case .retryWithDelay(let delay): "retry in \(delay)"
                case .doNotRetry: "do not retry"
                case .doNotRetryWithError(let retryError): "do not retry: \(retryError)"
                }
            return "retry decision for \(Self.name(request)) after \(error): \(decided)"
        }
    }
    /// `retrying GET http://host/path (retry 1)`.
    public func requestIsRetrying(_ request: Request) {
        log(.all) { "retrying \(Self.name(request)) (retry \(request.retryCount))" }
    }
    /// `retry of GET http://host/path refused by the retry budget`.
    public func requestRetryWasRefusedByBudget(_ request: Request) {
        log(.all) { "retry of \(Self.name(request)) refused by the retry budget" }
    }
    /// `resumed GET http://host/path`.
    public func requestDidResume(_ request: Request) {
        log(.all) { "resumed \(Self.name(request))" }
    }
    /// `suspended GET http://host/path`.
    public func requestDidSuspend(_ request: Request) {
        log(.all) { "suspended \(Self.name(request))" }
    }
    /// `cancelled GET http://host/path`.
    public func requestDidCancel(_ request: Request) {
        log(.all) { "cancelled \(Self.name(request))" }
    }
    /// `parsed the response to GET http://host/path: success`, or `...: failure: <error>`.
    public func request<Value: Sendable>(
        _ request: DataRequest, didParseResponse response: DataResponse<Value, WickError>
    ) {
        logParsed("the response to", request, error: response.error)
    }
    /// `GET http://host/path downloaded to /tmp/.../X.download`, or `...: download failed: <error>`.
    public func request(_ request: DownloadRequest, didFinishDownloadingWith result: Result<URL, WickError>) {
        log(.all) {
            switch result {
            case .success(let url): "\(Self.name(request)) downloaded to \(url.path)"
            case .failure(let error): "\(Self.name(request)): download failed: \(error)"
            }
        }
    }
    /// `GET http://host/path moved to /data/file`.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        log(.all) { "\(Self.name(request)) moved to \(url.path)" }
    }
    /// `parsed the download of GET http://host/path: success`, or `...: failure: <error>`.
    public func request<Value: Sendable>(
        _ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, WickError>
    ) {
        logParsed("the download of", request, error: response.error)
    }
    /// `POST http://host/path uploads a file /tmp/x` (or data, a stream, a multipart form).
    /// Body progress and stream elements are not logged: one line per chunk drowns the rest.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: Uploadable) {
        log(.all) {
            let what =
                switch uploadable {
                case .data(let data): "\(data.count) bytes"
                case .file(let url, _): "the file \(url.path)"
                case .stream: "a stream"
                case .multipart: "a multipart form"
                }
            return "\(Self.name(request)) uploads \(what)"
        }
    }
    /// `POST http://host/path: upload body failed: <error>`.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: WickError) {
        log(.all) { "\(Self.name(request)): upload body failed: \(error)" }
    }

    /// `parsed <what> GET http://host/path: success`, or `...: failure: <error>`.
    private func logParsed(_ what: String, _ request: Request, error: WickError?) {
        log(.all) {
            let name = Self.name(request)
            if let error { return "parsed \(what) \(name): failure: \(error)" }
            return "parsed \(what) \(name): success"
        }
    }
}
