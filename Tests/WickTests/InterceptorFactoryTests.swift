// Alamofire's interceptor factories (`.adapter(using:)`, `.retrier(using:)`, `.interceptor(...)`)
// and RequestAdapterState, on real requests against the fault server.
import Foundation
import Synchronization
import Testing
import Wick
import WickTestSupport

struct InterceptorFactoryTests {
    static let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)

    /// Sees the state Wick passes: which request it adapts.
    struct StateRecorder: RequestInterceptor {
        let seen: Shared<[UUID]>
        func adapt(
            _ request: HTTPRequest, for session: Session,
            completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
        ) {
            Issue.record("the state variant should have been called")
            completion(.success(request))
        }
        func adapt(
            _ request: HTTPRequest, using state: RequestAdapterState,
            completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
        ) {
            seen.withLock { $0.append(state.requestID) }
            completion(.success(request))
        }
    }

    @Test func adaptersGetTheRequestsStateThroughInterceptors() async throws {
        let server = try FaultServer { _ in [.readRequestHead, .send(Self.ok), .close] }
        defer { server.stop() }
        let seen = Shared<[UUID]>([])
        let session = Session(interceptor: .interceptor(adapters: [StateRecorder(seen: seen)]))
        let request = session.request("http://127.0.0.1:\(server.port)/", interceptor: StateRecorder(seen: seen))
        #expect(try await request.serializingData().value == Data("ok".utf8))
        // The request's own adapter, then the session's: both saw this request's id.
        #expect(seen.withLock { $0 } == [request.id, request.id])
        await session.shutdown()
    }

    @Test func closureFactoriesAdaptAndRetry() async throws {
        let failing = Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        let server = try FaultServer { index in [.readRequestHead, .send(index == 0 ? failing : Self.ok), .close] }
        defer { server.stop() }
        let session = Session()
        let adapter: Adapter = .adapter { request, _, completion in
            var signed = request
            signed.headers.update(name: "X-Signed", value: "yes")
            completion(.success(signed))
        }
        let retrier: Retrier = .retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retry : .doNotRetry)
        }
        let request = session.request(
            "http://127.0.0.1:\(server.port)/", interceptor: .interceptor(adapter: adapter, retrier: retrier)
        ).validate()
        #expect(try await request.serializingData().value == Data("ok".utf8))
        #expect(request.retryCount == 1)
        let head = String(decoding: server.received(onConnection: 1), as: UTF8.self)
        #expect(head.contains("X-Signed: yes"))
        let closures: Interceptor = .interceptor(
            adapter: { request, _, completion in completion(.success(request)) },
            retrier: { _, _, _, completion in completion(.doNotRetry) })
        #expect(closures.adapters.count == 1 && closures.retriers.count == 1)
        await session.shutdown()
    }
}
