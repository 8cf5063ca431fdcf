// Data streams against nginx: exact bodies, bounded buffering under slow readers, validation, cancellation.
import Dispatch
import Foundation
import Testing
import WickReactor
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct DataStreamNginxTests {
    /// The socket read the default event loop uses: what a reader may exceed its mark by.
    static let readBuffer = EventLoopGroup.Configuration().readBufferSize
    static let tenMiB = 10 << 20

    @Test func handlerChunksReassembleToTheExactBodyThenTheConnectionIsReused() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let recorder = StreamRecorder<Data, Never>()
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m").responseStream(stream: recorder.handler)
        let events = await recorder.completed()
        let completion = try #require(events.onlyCompletionLast())
        #expect(completion.error == nil && completion.response?.statusCode == 200)
        #expect(joined(events.values()) == Data(TestPayload.bytes(count: Self.tenMiB)))
        #expect(request.state == .finished)
        // The body was read to its end: the connection goes back to the pool.
        let next = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(next.metrics?.isReused == true)
        await session.shutdown()
    }

    @Test func sequenceChunksReassembleToTheExactBody() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        var body = Data()
        for try await chunk in session.streamRequest("\(nginx.httpBase)/bytes/10m").streamingData() {
            body.append(chunk)
        }
        #expect(body == Data(TestPayload.bytes(count: Self.tenMiB)))
        await session.shutdown()
    }

    @Test(arguments: [DataStreamRequest.BufferingPolicy.default, .bytes(256 * 1024)])
    func aSlowSequenceReaderKeepsBufferingBounded(policy: DataStreamRequest.BufferingPolicy) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m")
        let sequence = request.streamingData(bufferingPolicy: policy)
        var body = Data()
        var chunks = 0
        for try await chunk in sequence {
            body.append(chunk)
            chunks += 1
            try await Task.sleep(for: .milliseconds(2))
        }
        let peak = sequence.peakBufferedBytes
        #expect(body == Data(TestPayload.bytes(count: Self.tenMiB)))
        // Bounded: never more than the mark plus the read in progress when reading paused...
        #expect(peak <= policy.highWaterMark + Self.readBuffer, "peak \(peak) over \(chunks) chunks")
        // ...and the reader really was behind: the buffer filled up to its mark.
        #expect(peak > policy.highWaterMark, "peak \(peak) over \(chunks) chunks")
        await session.shutdown()
    }

    @Test func aReaderBehindForLongerThanTheIdleTimeoutDoesNotTimeOut() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.idleTransferTimeout = .milliseconds(200) }
        var body = Data()
        let sequence = session.streamRequest("\(nginx.httpBase)/bytes/1m").streamingData(
            bufferingPolicy: .bytes(64 * 1024))
        for try await chunk in sequence {
            // Reading is paused while the reader sleeps: the connection is idle on its account.
            if body.isEmpty { try await Task.sleep(for: .milliseconds(600)) }
            body.append(chunk)
        }
        #expect(body == Data(TestPayload.bytes(count: 1 << 20)))
        await session.shutdown()
    }

    @Test func aSlowHandlerKeepsBufferingBounded() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let policy = DataStreamRequest.BufferingPolicy.bytes(512 * 1024)
        let recorder = StreamRecorder<Data, Never> { _ in usleep(2_000) }
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m")
            .responseStream(bufferingPolicy: policy, stream: recorder.handler)
        let events = await recorder.completed()
        #expect(try #require(events.onlyCompletionLast()).error == nil)
        #expect(joined(events.values()) == Data(TestPayload.bytes(count: Self.tenMiB)))
        let peak = request.peakBufferedBytes
        #expect(peak <= policy.highWaterMark + Self.readBuffer && peak > policy.highWaterMark, "peak \(peak)")
        await session.shutdown()
    }

    @Test func chunkedTextArrivesAsTheSameStrings() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let recorder = StreamRecorder<String, Never>()
        session.streamRequest("\(nginx.httpBase)/chunked/1m.txt").responseStreamString(stream: recorder.handler)
        let events = await recorder.completed()
        #expect(try #require(events.onlyCompletionLast()).error == nil)
        #expect(events.values().joined() == String(decoding: TestPayload.text(count: 1 << 20), as: UTF8.self))
        var text = ""
        for try await string in session.streamRequest("\(nginx.httpBase)/chunked/1m.txt").streamingStrings() {
            text += string
        }
        #expect(text.utf8.count == 1 << 20)
        await session.shutdown()
    }

    @Test func aFailedValidationOn404DeliversNoChunk() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let recorder = StreamRecorder<Data, Never>()
        let request = session.streamRequest("\(nginx.httpBase)/bytes/missing").validate().responseStream(
            stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.count == 1)
        let completion = try #require(events.onlyCompletionLast())
        guard case .responseValidationFailed(.unacceptableStatusCode(404))? = completion.error else {
            Issue.record("expected a 404 validation failure, got \(String(describing: completion.error))")
            return
        }
        #expect(completion.response?.statusCode == 404 && request.response?.statusCode == 404)

        var chunks = 0
        do {
            for try await _ in session.streamRequest("\(nginx.httpBase)/bytes/missing").validate(statusCode: [200])
                .streamingData()
            {
                chunks += 1
            }
            Issue.record("expected the sequence to throw")
        } catch {
            guard case .responseValidationFailed(.unacceptableStatusCode(404)) = error else {
                Issue.record("expected a 404 validation failure, got \(error)")
                return
            }
        }
        #expect(chunks == 0)
        await session.shutdown()
    }

    @Test func cancellingTheReadingTaskCancelsTheRequestAndItsConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m")
        let sequence = request.streamingData(bufferingPolicy: .bytes(128 * 1024))
        let chunksRead = Shared(0)
        let reading = Task {
            var bytes = 0
            for try await chunk in sequence {
                bytes += chunk.count
                chunksRead.withLock { $0 += 1 }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return bytes
        }
        #expect(try await waitUntil { chunksRead.withLock { $0 } >= 3 })
        reading.cancel()
        let result = await reading.result
        guard case .failure(WickError.explicitlyCancelled) = result else {
            Issue.record("expected explicitlyCancelled, got \(result)")
            return
        }
        await finished(request)
        #expect(request.state == .cancelled && request.isCancelled && request.error.map { "\($0)" } == "\(WickError.explicitlyCancelled)")
        // The cancelled connection had unread bytes: it was closed, not pooled.
        let next = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(next.value?.count == 1_024 && next.metrics?.isReused == false)
        await session.shutdown()
    }

    @Test func droppingTheIteratorCancelsTheRequest() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m")
        do {
            var iterator = request.streamingData(bufferingPolicy: .bytes(64 * 1024)).makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first?.isEmpty == false)
        }
        await finished(request)
        #expect(request.state == .cancelled)
        guard case .explicitlyCancelled? = request.error else {
            Issue.record("expected explicitlyCancelled, got \(String(describing: request.error))")
            return
        }
        await session.shutdown()
    }

    @Test func cancellingFromInsideAHandlerStopsTheStream() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let seen = Shared(0)
        let recorder = StreamRecorder<Data, Never> { stream in
            if seen.withLock({
                $0 += 1; return $0
            }) == 3 {
                stream.cancel()
            }
        }
        let request = session.streamRequest("\(nginx.httpBase)/bytes/10m")
            .responseStream(bufferingPolicy: .bytes(128 * 1024), stream: recorder.handler)
        let events = await recorder.completed()
        let completion = try #require(events.onlyCompletionLast())
        guard case .explicitlyCancelled? = completion.error else {
            Issue.record("expected explicitlyCancelled, got \(String(describing: completion.error))")
            return
        }
        // No `.stream` event after the cancel.
        #expect(events.values().count == 3)
        #expect(request.state == .cancelled && request.isCancelled)
        let next = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(next.metrics?.isReused == false)
        await session.shutdown()
    }

    @Test func everyHandlerGetsOneCompletionAfterAllItsChunks() async throws {
        let nginx = try TestEnvironment.nginx()
        // Resumed by hand once both handlers are in: as in Alamofire, a handler added after the
        // request started sees only what arrives from then on.
        let session = Session(startRequestsImmediately: false)
        let raw = StreamRecorder<Data, Never> { _ in usleep(200) }
        let text = StreamRecorder<String, Never>()
        let sequenceRequest = session.streamRequest("\(nginx.httpBase)/bytes/1m")
        sequenceRequest
            .responseStream(on: .global(), stream: raw.handler)
            .responseStreamString(on: DispatchQueue(label: "test.text"), stream: text.handler)
            .resume()
        let rawEvents = await raw.completed()
        let textEvents = await text.completed()
        #expect(joined(rawEvents.values()) == Data(TestPayload.bytes(count: 1 << 20)))
        #expect(textEvents.values().joined().unicodeScalars.count > 0)
        #expect(rawEvents.onlyCompletionLast()?.error == nil && textEvents.onlyCompletionLast()?.error == nil)
        // Nothing comes after the completion.
        try await Task.sleep(for: .milliseconds(100))
        #expect(raw.all.count == rawEvents.count && text.all.count == textEvents.count)
        await session.shutdown()
    }

    @Test func aThrowingHandlerEndsTheStreamWithItsError() async throws {
        struct Stop: Error {}
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let recorder = StreamRecorder<Data, Never> { _ in throw Stop() }
        session.streamRequest("\(nginx.httpBase)/bytes/10m").responseStream(stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().count == 1)
        guard
            case .responseSerializationFailed(.customSerializationFailed(let error))? = events.onlyCompletionLast()?
                .error
        else {
            Issue.record("expected the thrown error, got \(events.last.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(error is Stop)
        await session.shutdown()
    }
}
