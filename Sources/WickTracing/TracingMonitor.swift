// Records exchanges, redirects and the outcome on each traced request's span, and ends it.
public import Dispatch
import Tracing
public import Wick

/// The event monitor that completes the spans `TracingInterceptor`s start: add it to the
/// session (`Session(eventMonitors: [TracingMonitor()])`). A request without a
/// `TracingInterceptor` as its own interceptor is not traced and costs the monitor a type check
/// per event.
///
/// On the span: an `exchange` event per exchange (status, reuse, peer, bytes, phase timings), a
/// `retry` event per retry, a `redirect` event per redirect followed (with the new `url.full`); at the end the final
/// `http.response.status_code`, `http.request.resend_count` (retries), `wick.redirects`,
/// and on failure the error (`recordError`), `error.type` and an error status. A response with
/// a status of 400 or more is an error too, as the conventions say for client spans.
public final class TracingMonitor: EventMonitor {
    /// The queue events arrive on when they are not delivered inline: one of the monitor's own.
    public let queue = DispatchQueue(label: "wick.tracing-monitor")
    /// Whether events are recorded at once, on the thread that produces them: an event on the
    /// span, cheaper than a dispatch and a wake-up per event. See
    /// `EventMonitor.receivesEventsInline`.
    public let receivesEventsInline: Bool

    /// A monitor; `receivesEventsInline` false delivers its events on `queue` instead (for a
    /// tracer whose spans are slow to record).
    public init(receivesEventsInline: Bool = true) {
        self.receivesEventsInline = receivesEventsInline
    }

    /// The events it records on spans: each exchange's metrics, redirects, retries and the end.
    public var handledEvents: EventMonitorEvents { [.didGatherMetrics, .willRedirect, .isRetrying, .didFinish] }

    /// The span of `request`, when it is traced, has started and records (a tracer that samples
    /// the request out gives a span that does not, and then nothing is built for it).
    private func span(of request: Request) -> (any Span)? {
        guard let span = (request.interceptor as? TracingInterceptor)?.span, span.isRecording else { return nil }
        return span
    }

    /// Adds an `exchange` event for the exchange that just ended.
    public func request(_ request: Request, didGatherMetrics metrics: RequestMetrics) {
        span(of: request)?.addEvent(SpanEvent(name: "exchange", attributes: SemanticAttributes.exchange(metrics.last)))
    }

    /// Adds a `redirect` event naming where it goes.
    public func request(_ request: Request, willRedirectTo newRequest: HTTPRequest, for response: HTTPResponse) {
        guard let span = span(of: request) else { return }
        var attributes = SemanticAttributes.request(newRequest)
        attributes["http.response.status_code"] = response.statusCode
        span.addEvent(SpanEvent(name: "redirect", attributes: attributes))
    }

    /// Adds a `retry` event with the retry's number (`http.request.resend_count`).
    public func requestIsRetrying(_ request: Request) {
        guard let span = span(of: request) else { return }
        var attributes = SpanAttributes()
        attributes["http.request.resend_count"] = request.retryCount
        span.addEvent(SpanEvent(name: "retry", attributes: attributes))
    }

    /// Records the outcome on the span and ends it.
    public func requestDidFinish(_ request: Request) {
        guard let span = (request.interceptor as? TracingInterceptor)?.span else { return }
        guard span.isRecording else { return span.end() }
        if let last = request.request { span.attributes.merge(SemanticAttributes.request(last)) }
        span.attributes["http.request.resend_count"] = request.retryCount
        span.attributes["wick.redirects"] = request.redirectCount
        if let status = request.response?.statusCode {
            span.attributes["http.response.status_code"] = status
            if status >= 400 {
                span.attributes["error.type"] = String(status)
                span.setStatus(SpanStatus(code: .error))
            }
        }
        if let error = request.error {
            span.recordError(error)
            span.attributes["error.type"] = error.typeName
            span.setStatus(SpanStatus(code: .error, message: error.description))
        }
        span.end()
    }
}
