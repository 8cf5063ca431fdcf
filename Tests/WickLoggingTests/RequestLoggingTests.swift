// A session's and a request's swift-log Logger: what is logged at which level, with which metadata.
import Dispatch
import FoundationEssentials
import InMemoryLogging
import Logging
import Testing
import Wick
import WickTestSupport

@Suite struct RequestLoggingTests {
    /// A logger at `level` whose entries `handler` keeps.
    static func logger(_ handler: InMemoryLogHandler, level: Logger.Level) -> Logger {
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = level
        return logger
    }

    /// A session that logs to `logger`.
    static func session(logging logger: Logger, interceptor: (any RequestInterceptor)? = nil) -> Session {
        var configuration = Session.Configuration()
        configuration.logger = logger
        return Session(configuration: configuration, interceptor: interceptor)
    }

    /// Awaits `request`'s data response.
    static func response(_ request: DataRequest) async -> DataResponse<Data, WickError> {
        await withCheckedContinuation { continuation in
            request.responseData { continuation.resume(returning: $0) }
        }
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aRequestIsOneDebugLineWithItsFacts() async throws {
        let base = try TestEnvironment.httpbin().base
        let handler = InMemoryLogHandler()
        let session = Self.session(logging: Self.logger(handler, level: .debug))
        defer { Task { await session.shutdown() } }
        let request = session.request("\(base)/redirect/1")
        _ = await Self.response(request)

        let entries = handler.entries
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.level == .debug)
        #expect(entry.message == "request finished")
        let metadata = entry.metadata
        #expect(metadata["wick.request.id"] == .string(request.id.uuidString))
        #expect(metadata["http.request.method"] == .string("GET"))
        #expect(metadata["server.address"] == .string("127.0.0.1"))
        #expect(metadata["url.path"] == .string("/get"))
        #expect(metadata["http.response.status_code"] == .stringConvertible(200))
        #expect(metadata["wick.redirects"] == .stringConvertible(1))
        #expect(metadata["http.request.resend_count"] == .stringConvertible(0))
        #expect(metadata["wick.exchanges"] == .stringConvertible(2))
        #expect(metadata["wick.connection.reused"] != nil)
        #expect(metadata["wick.timing.total"] != nil)
        #expect(metadata["wick.timing.first_byte"] != nil)
        #expect(metadata["error.type"] == nil)
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func nothingIsLoggedPerRequestAtInfo() async throws {
        let base = try TestEnvironment.httpbin().base
        let handler = InMemoryLogHandler()
        let session = Self.session(logging: Self.logger(handler, level: .info))
        defer { Task { await session.shutdown() } }
        let response = await Self.response(session.request("\(base)/redirect/2"))
        #expect(response.response?.statusCode == 200)
        #expect(handler.entries.isEmpty)
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func traceShowsEverySendAndExchange() async throws {
        let base = try TestEnvironment.httpbin().base
        let handler = InMemoryLogHandler()
        let session = Self.session(logging: Self.logger(handler, level: .trace))
        defer { Task { await session.shutdown() } }
        _ = await Self.response(session.request("\(base)/redirect/1?token=secret"))

        let messages = handler.entries.map(\.message.description)
        #expect(
            messages == ["sending request", "exchange completed", "sending request", "exchange completed", "request finished"])
        let exchanges = handler.entries.filter { $0.message == "exchange completed" }
        #expect(exchanges.map { $0.metadata["http.response.status_code"] } == [.stringConvertible(302), .stringConvertible(200)])
        #expect(exchanges.first?.metadata["wick.connection.reused"] == .stringConvertible(false))
        // The query string (credentials live there) is never logged.
        #expect(!handler.entries.contains { "\($0.metadata)".contains("secret") })
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aRequestsOwnLoggerReplacesTheSessions() async throws {
        let base = try TestEnvironment.httpbin().base
        let sessionHandler = InMemoryLogHandler()
        let requestHandler = InMemoryLogHandler()
        let session = Self.session(logging: Self.logger(sessionHandler, level: .debug))
        defer { Task { await session.shutdown() } }
        var own = Self.logger(requestHandler, level: .debug)
        own[metadataKey: "caller.request"] = "abc"
        _ = await Self.response(session.request("\(base)/get").logging(to: own))

        #expect(sessionHandler.entries.isEmpty)
        let entry = try #require(requestHandler.entries.first)
        #expect(entry.message == "request finished")
        #expect(entry.metadata["http.response.status_code"] == .stringConvertible(200))
    }

    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
    func aRetryAndAFailureAreLoggedAtDebug() async throws {
        let base = try TestEnvironment.httpbin().base
        let handler = InMemoryLogHandler()
        let retryOnce = Interceptor(
            adaptHandler: { request, _, completion in completion(.success(request)) },
            retryHandler: { request, _, _, completion in completion(request.retryCount < 1 ? .retry : .doNotRetry) })
        let session = Self.session(logging: Self.logger(handler, level: .debug), interceptor: retryOnce)
        defer { Task { await session.shutdown() } }
        let response = await Self.response(session.request("\(base)/status/503").validate())
        #expect(response.error != nil)

        #expect(handler.entries.map(\.message.description) == ["retrying request", "request failed"])
        let retry = handler.entries[0].metadata
        #expect(retry["http.request.resend_count"] == .stringConvertible(1))
        #expect(retry["error.type"] == .string("responseValidationFailed"))
        let failure = handler.entries[1].metadata
        #expect(failure["http.request.resend_count"] == .stringConvertible(1))
        #expect(failure["http.response.status_code"] == .stringConvertible(503))
        #expect(failure["error.type"] == .string("responseValidationFailed"))
        #expect(failure["error.message"] != nil)
    }

    @Test func theDefaultLoggerIsSilentWhateverTheSystemSays() {
        let logger = Session.Configuration().logger
        #expect(logger.logLevel == .critical)
        #expect(logger.label == "wick")
    }
}
