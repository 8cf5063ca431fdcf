// A request's client span: started with the caller's context, propagated in its headers.
import Dispatch
public import Tracing
public import Wick
import Synchronization

/// Traces one request: give a new one to each request,
/// `session.request(url, interceptor: TracingInterceptor())`, with a `TracingMonitor` among the
/// session's event monitors. Made in the caller's task, it takes that task's `ServiceContext`
/// (the span the caller is in) as the parent; Wick's adapters run on the session's root queue,
/// where no task-local context exists, which is why the context is taken here and not later.
///
/// Before the first attempt it starts a client span named by the method (OpenTelemetry's
/// `{method}`) with the request's semantic attributes; before every attempt it injects the
/// span's context into the request's headers through the tracer (`traceparent` and
/// `tracestate` with a W3C instrument), and marks each retry with an event. The
/// `TracingMonitor` records exchanges and redirects on the span and ends it.
///
/// As a retrier it never asks for a retry, so the session's retriers decide.
public final class TracingInterceptor: RequestInterceptor {
    /// The span's parent: the caller's context when the interceptor was made.
    public let parentContext: ServiceContext
    private let tracer: any Tracer
    /// The span, once the first attempt started it.
    private let started = Mutex<(any Span)?>(nil)

    /// An interceptor whose span is a child of `context` (default: the calling task's, or a new
    /// trace), made by `tracer` (default: the bootstrapped `InstrumentationSystem.tracer`).
    public init(tracer: any Tracer = InstrumentationSystem.tracer, context: ServiceContext = .current ?? .topLevel) {
        self.tracer = tracer
        parentContext = context
    }

    /// True: `adapt` starts or looks up the span and injects its context at once, so Wick runs
    /// it without a hop to the session's root queue.
    public var adaptsWithoutBlocking: Bool { true }

    /// The request's span; nil before its first attempt.
    public var span: (any Span)? { started.withLock { $0 } }

    /// Starts the span on the first attempt and injects its context into the request's headers
    /// on every attempt. Never fails.
    public func adapt(
        _ request: HTTPRequest, for session: Session,
        completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
    ) {
        let span = started.withLock { started -> any Span in
            if let span = started { return span }
            let span = tracer.startSpan(request.method.rawValue, context: parentContext, ofKind: .client)
            if span.isRecording { span.attributes.merge(SemanticAttributes.request(request)) }
            started = span
            return span
        }
        // Into a list first: a tracer that propagates nothing (a no-op one) leaves the request's
        // fields shared, not copied.
        var fields: [(name: String, value: String)] = []
        tracer.inject(span.context, into: &fields, using: FieldListInjector())
        guard !fields.isEmpty else { return completion(.success(request)) }
        var injected = request
        for field in fields { injected.headers.update(name: field.name, value: field.value) }
        completion(.success(injected))
    }
}

/// Collects an instrument's propagation fields in order, for `TracingInterceptor` to set.
private struct FieldListInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [(name: String, value: String)]) {
        carrier.append((key, value))
    }
}
