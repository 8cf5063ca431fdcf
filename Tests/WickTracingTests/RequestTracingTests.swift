// A traced request end to end: the client span, its events, its attributes, and the context
// the server received, with swift-distributed-tracing's in-memory tracer.
import Dispatch
import FoundationEssentials
import InMemoryTracing
import Instrumentation
import Testing
import Tracing
import Wick
import WickTestSupport
import WickTracing

@Suite struct RequestTracingTests {
    /// Awaits `request`'s response, then every event `monitor` has been handed.
    static func finish(_ request: DataRequest, _ monitor: TracingMonitor) async -> DataResponse<Data, WickError> {
        let response = await withCheckedContinuation { continuation in
            request.responseData { continuation.resume(returning: $0) }
        }
        monitor.queue.sync {}
        return response
    }

    /// The fields httpbin's `/headers` echoed, by lowercased name.
    static func echoedHeaders(_ data: Data?) throws -> [String: String] {
        let object = try JSONValue(parsing: try #require(data))
        guard case .object(let top) = object, case .object(let headers)? = top["headers"] else { return [:] }
        var fields: [String: String] = [:]
        for (name, value) in headers { if case .string(let text) = value { fields[name.lowercased()] = text } }
        return fields
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aRequestIsAChildSpanWhoseContextReachesTheServer() async throws {
        let base = try TestEnvironment.httpbin().base
        let tracer = InMemoryTracer()
        let monitor = TracingMonitor()
        let session = Session(eventMonitors: [monitor])
        defer { Task { await session.shutdown() } }

        let parent = tracer.startSpan("handler", context: .topLevel, ofKind: .server)
        let response = await ServiceContext.withValue(parent.context) {
            let request = session.request("\(base)/redirect-to?url=/headers", interceptor: TracingInterceptor(tracer: tracer))
            return await Self.finish(request, monitor)
        }
        parent.end()
        #expect(response.response?.statusCode == 200)

        let spans = tracer.finishedSpans.filter { $0.kind == .client }
        let span = try #require(spans.first)
        #expect(spans.count == 1)
        #expect(span.operationName == "GET")
        #expect(span.traceID == parent.traceID)
        #expect(span.parentSpanID == parent.spanID)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == .string("GET"))
        #expect(span.attributes["server.address"]?.toSpanAttribute() == .string("127.0.0.1"))
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(span.attributes["wick.redirects"]?.toSpanAttribute() == .int64(1))
        #expect(span.attributes["http.request.resend_count"]?.toSpanAttribute() == .int64(0))
        #expect(span.attributes["url.full"]?.toSpanAttribute() == .string("\(base)/headers"))
        #expect(span.events.map(\.name) == ["exchange", "redirect", "exchange"])
        #expect(span.status == nil)
        #expect(span.errors.isEmpty)

        // The tracer's propagation fields went out with the request and the redirect hop.
        let echoed = try Self.echoedHeaders(response.data)
        #expect(echoed[InMemoryTracer.traceIDKey] == span.traceID)
        #expect(echoed[InMemoryTracer.spanIDKey] == span.spanID)
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aRetriedFailureMarksTheRetryAndTheError() async throws {
        let base = try TestEnvironment.httpbin().base
        let tracer = InMemoryTracer()
        let monitor = TracingMonitor()
        let retryOnce = Interceptor(
            adaptHandler: { request, _, completion in completion(.success(request)) },
            retryHandler: { request, _, _, completion in completion(request.retryCount < 1 ? .retry : .doNotRetry) })
        let session = Session(interceptor: retryOnce, eventMonitors: [monitor])
        defer { Task { await session.shutdown() } }
        let request = session.request("\(base)/status/503", interceptor: TracingInterceptor(tracer: tracer, context: .topLevel))
        _ = await Self.finish(request.validate(), monitor)

        let span = try #require(tracer.finishedSpans.first)
        #expect(span.parentSpanID == nil)
        #expect(span.events.map(\.name) == ["exchange", "retry", "exchange"])
        #expect(span.attributes["http.request.resend_count"]?.toSpanAttribute() == .int64(1))
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(503))
        #expect(span.attributes["error.type"]?.toSpanAttribute() == .string("responseValidationFailed"))
        #expect(span.status?.code == .error)
        #expect(span.errors.count == 1)
        // The injection replaced the fields of the first attempt: one value each.
        #expect(tracer.performedContextInjections.count == 2)
    }

    @Test func theInjectorReplacesAFieldAlreadyThere() {
        var headers: HTTPHeaders = ["traceparent": "00-old-old-01", "Accept": "*/*"]
        HTTPHeadersInjector().inject("00-new-new-01", forKey: "traceparent", into: &headers)
        #expect(headers.values(for: "traceparent") == ["00-new-new-01"])
        #expect(headers.value(for: "Accept") == "*/*")
    }

    @Test func anUntracedRequestIsLeftAlone() async throws {
        let refusing = try RefusingPort()
        let tracer = InMemoryTracer()
        let monitor = TracingMonitor()
        var configuration = Session.Configuration()
        configuration.waitsForConnectivity = false
        let session = Session(configuration: configuration, eventMonitors: [monitor])
        defer { Task { await session.shutdown() } }
        _ = await Self.finish(session.request("http://127.0.0.1:\(refusing.port)/"), monitor)
        #expect(tracer.finishedSpans.isEmpty)
        #expect(tracer.activeSpans.isEmpty)
    }
}
