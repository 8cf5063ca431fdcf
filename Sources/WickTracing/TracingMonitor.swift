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
/// `redirect` event per redirect followed (with the new `url.full`); at the end the final
/// `http.response.status_code`, `http.request.resend_count` (retries), `wick.redirects`,
/// and on failure the error (`recordError`), `error.type` and an error status. A response with
/// a status of 400 or more is an error too, as the conventions say for client spans.
public final class TracingMonitor: EventMonitor {
    /// The queue events arrive on: one of the monitor's own.
    public let queue = DispatchQueue(label: "wick.tracing-monitor")

    /// A monitor.
    public init() {}

    /// The span of `request`, when it is traced and has started.
    private func span(of request: Request) -> (any Span)? {
        (request.interceptor as? TracingInterceptor)?.span
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

    /// Records the outcome on the span and ends it.
    public func requestDidFinish(_ request: Request) {
        guard let span = span(of: request) else { return }
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
