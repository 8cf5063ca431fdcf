// Alamofire's three session queues: the root queue for the user's request code, the request
// queue for adapters, the serialization queue for serializers; and its argument order.
import Dispatch
import FoundationEssentials
import Testing
import Wick
import WickTestSupport

struct SessionQueuesTests {
    /// Marks a queue, so code can tell which one it runs on.
    private final class MarkedQueue: Sendable {
        static let key = DispatchSpecificKey<String>()
        let queue: DispatchQueue

        init(_ name: String) {
            queue = DispatchQueue(label: "test.\(name)")
            queue.setSpecific(key: Self.key, value: name)
        }

        static var current: String? { DispatchQueue.getSpecific(key: key) }
    }

    /// A serializer that records the queue it runs on.
    private struct RecordingSerializer: ResponseSerializer {
        let seen: Shared<String?>

        func serialize(request: HTTPRequest?, response: HTTPResponse?, data: Data?, error: WickError?) throws -> Data {
            seen.withLock { $0 = MarkedQueue.current }
            if let error { throw error }
            return data ?? Data()
        }
    }

    private static func okServer() throws -> FaultServer {
        try FaultServer(steps: [.readRequest, .respond(body: "ok")])
    }

    /// A data request's and a download's serializer alike.
    @Test(arguments: [false, true])
    func aSerializationQueueRunsSerializersAndTheHandlerQueueTheCompletion(download: Bool) async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let serialization = MarkedQueue("serialization")
        let handler = MarkedQueue("handler")
        let session = Session(serializationQueue: serialization.queue)
        let serializedOn = Shared<String?>(nil)
        let serializer = RecordingSerializer(seen: serializedOn)
        let url = "http://127.0.0.1:\(server.port)/"
        let (value, completedOn) = await withCheckedContinuation { continuation in
            if download {
                session.download(url).response(queue: handler.queue, responseSerializer: serializer) { response in
                    continuation.resume(returning: (response.value, MarkedQueue.current))
                }
            } else {
                session.request(url).response(queue: handler.queue, responseSerializer: serializer) { response in
                    continuation.resume(returning: (response.value, MarkedQueue.current))
                }
            }
        }
        #expect(value == Data("ok".utf8))
        #expect(serializedOn.withLock { $0 } == "serialization" && completedOn == "handler")
        await session.shutdown()
    }

    @Test func withoutOneTheSerializerRunsOnTheHandlersQueue() async throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let handler = MarkedQueue("handler")
        let session = Session()
        #expect(session.serializationQueue == nil)
        let serializedOn = Shared<String?>(nil)
        await withCheckedContinuation { continuation in
            session.request("http://127.0.0.1:\(server.port)/")
                .response(queue: handler.queue, responseSerializer: RecordingSerializer(seen: serializedOn)) { _ in
                    continuation.resume()
                }
        }
        #expect(serializedOn.withLock { $0 } == "handler")
        await session.shutdown()
    }

    @Test func adaptersRunOnTheRequestQueueAndRetriersOnTheRootQueue() async throws {
        let server = try FaultServer { index in
            index == 0 ? [.readRequest, .respond(status: 503, body: "busy")] : [.readRequest, .respond(body: "ok")]
        }
        defer { server.stop() }
        let root = MarkedQueue("root")
        let requestQueue = MarkedQueue("request")
        let adaptedOn = Shared<[String?]>([])
        let retriedOn = Shared<[String?]>([])
        let interceptor = Interceptor(
            adaptHandler: { request, _, completion in
                adaptedOn.withLock { $0.append(MarkedQueue.current) }
                completion(.success(request))
            },
            retryHandler: { request, _, _, completion in
                retriedOn.withLock { $0.append(MarkedQueue.current) }
                completion(request.retryCount == 0 ? .retry : .doNotRetry)
            })
        // Alamofire's argument order.
        let session = Session(
            configuration: .default, rootQueue: root.queue, startRequestsImmediately: true,
            requestQueue: requestQueue.queue, interceptor: interceptor, serverTrustManager: nil)
        let value = try await session.request("http://127.0.0.1:\(server.port)/").validate().serializingString().value
        #expect(value == "ok")
        #expect(adaptedOn.withLock { $0 } == ["request", "request"])
        #expect(retriedOn.withLock { $0 } == ["root"])
        #expect(session.rootQueue === root.queue && session.requestQueue === requestQueue.queue)
        await session.shutdown()
    }

    @Test func theRequestQueueDefaultsToTheRootQueue() async {
        let root = DispatchQueue(label: "test.root")
        let session = Session(rootQueue: root)
        #expect(session.requestQueue === root && session.rootQueue === root)
        await session.shutdown()
    }
}
