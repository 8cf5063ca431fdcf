// Where adapters run: on the root queue by default, where the attempt starts when all of them
// declare `adaptsWithoutBlocking` (as TracingInterceptor does).
import Dispatch
import FoundationEssentials
import Synchronization
import Testing
import Tracing
import Wick
import WickTestSupport
import WickTracing

@Suite struct AdapterPlacementTests {
    /// Where each adaptation ran: true on the session's root queue.
    final class Placements: Sendable {
        let onRootQueue = Mutex<[Bool]>([])
    }

    /// An adapter that records whether it ran on the session's root queue.
    struct RecordingAdapter: RequestInterceptor {
        let key: DispatchSpecificKey<Bool>
        let placements: Placements
        let adaptsWithoutBlocking: Bool

        func adapt(
            _ request: HTTPRequest, for session: Session,
            completion: @escaping @Sendable (Result<HTTPRequest, any Error>) -> Void
        ) {
            let onRoot = DispatchQueue.getSpecific(key: key) == true
            placements.onRootQueue.withLock { $0.append(onRoot) }
            completion(.success(request))
        }
    }

    /// Whether `adapter`'s kind ran on the root queue, for one request to a refusing port.
    static func ranOnRootQueue(adaptsWithoutBlocking: Bool, withTracing: Bool) async throws -> [Bool] {
        let refusing = try RefusingPort()
        var configuration = Session.Configuration()
        configuration.waitsForConnectivity = false
        let key = DispatchSpecificKey<Bool>()
        let placements = Placements()
        let adapter = RecordingAdapter(key: key, placements: placements, adaptsWithoutBlocking: adaptsWithoutBlocking)
        let session = Session(configuration: configuration, interceptor: adapter)
        defer { Task { await session.shutdown() } }
        session.rootQueue.setSpecific(key: key, value: true)
        let request = session.request(
            "http://127.0.0.1:\(refusing.port)/", interceptor: withTracing ? TracingInterceptor(tracer: NoOpTracer()) : nil)
        _ = await withCheckedContinuation { continuation in
            request.response { continuation.resume(returning: $0) }
        }
        return placements.onRootQueue.withLock { $0 }
    }

    @Test func anAdapterRunsOnTheRootQueueByDefault() async throws {
        #expect(try await Self.ranOnRootQueue(adaptsWithoutBlocking: false, withTracing: false) == [true])
    }

    @Test func adaptersThatAllDeclareItRunWhereTheAttemptStarts() async throws {
        #expect(try await Self.ranOnRootQueue(adaptsWithoutBlocking: true, withTracing: true) == [false])
    }

    @Test func oneBlockingAdapterSendsThemAllToTheRootQueue() async throws {
        #expect(try await Self.ranOnRootQueue(adaptsWithoutBlocking: false, withTracing: true) == [true])
    }
}
