// Data streams against scripted servers: NDJSON and UTF-8 split at odd offsets, validation with
// the body already read, redirects, lost connections, retries, and cancellation while waiting.
import Dispatch
import Foundation
import Testing
import WickTestSupport

@testable import Wick

private struct Point: Codable, Equatable {
    let x: Int
    let label: String
}

struct DataStreamFaultTests {
    /// Six lines: two values, an empty line, a CRLF value with a two-byte character, a bad line,
    /// and two more values, the last without LF.
    static let ndjson = Array(
        "{\"x\":1,\"label\":\"a\"}\n{\"x\":2,\"label\":\"b\"}\n\n{\"x\":3,\"label\":\"é\"}\r\n{bad\n{\"x\":4,\"label\":\"c\"}\n{\"x\":5,\"label\":\"d\"}"
            .utf8)
    /// Cuts inside values, inside the CRLF, inside `é`, and inside the bad line.
    static let ndjsonCuts = [7, 20, 23, 58, 60, 62, 65, 97]

    static func ndjsonServer() throws -> FaultServer {
        try FaultServer(
            steps: piecewise(
                head:
                    "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(ndjson.count)\r\n\r\n",
                body: ndjson, cuts: ndjsonCuts))
    }

    @Test func ndjsonLinesSplitAtOddOffsetsDecodeInOrderWithTheBadLineAsAFailure() async throws {
        let server = try Self.ndjsonServer()
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Point, WickError>()
        session.streamRequest("http://127.0.0.1:\(server.port)/events")
            .responseStreamDecodable(of: Point.self, stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().map(\.x) == [1, 2, 3, 4, 5])
        #expect(events.values()[2].label == "é")
        #expect(try #require(events.onlyCompletionLast()).error == nil)
        let failures = events.compactMap { event -> WickError? in
            guard case .stream(.failure(let error)) = event else { return nil }
            return error
        }
        #expect(failures.count == 1)
        guard case .responseSerializationFailed(.lineDecodingFailed(line: 5, _))? = failures.first else {
            Issue.record("expected line 5 to fail, got \(failures)")
            return
        }
        // The failure comes where the line was: after 3, before 4.
        guard case .stream(.failure) = events[3] else {
            Issue.record("expected the failure fourth, got \(events)")
            return
        }
        await session.shutdown()
    }

    @Test func ndjsonAsASequenceGivesTheSameResults() async throws {
        let server = try Self.ndjsonServer()
        defer { server.stop() }
        let session = Session()
        var values: [Int] = []
        var failedLines: [Int] = []
        for try await result in session.streamRequest("http://127.0.0.1:\(server.port)/").streamingDecodables(
            Point.self)
        {
            switch result {
            case .success(let point): values.append(point.x)
            case .failure(.responseSerializationFailed(.lineDecodingFailed(let line, _))): failedLines.append(line)
            case .failure(let other): Issue.record("unexpected failure \(other)")
            }
        }
        #expect(values == [1, 2, 3, 4, 5] && failedLines == [5])
        await session.shutdown()
    }

    @Test func aBadLineEndsTheStreamWhenAutomaticallyCancelling() async throws {
        let server = try Self.ndjsonServer()
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Point, WickError>()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/", automaticallyCancelOnStreamError: true)
            .responseStreamDecodable(of: Point.self, stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().map(\.x) == [1, 2, 3])
        guard case .responseSerializationFailed(.lineDecodingFailed(line: 5, _))? = events.onlyCompletionLast()?.error,
            case .responseSerializationFailed(.lineDecodingFailed(line: 5, _))? = request.error
        else {
            Issue.record("expected the stream to end with line 5's failure, got \(events)")
            return
        }

        // The sequence form: the failure is returned, then thrown as the request's error.
        var values: [Int] = []
        var failures = 0
        do {
            let sequence = session.streamRequest(
                "http://127.0.0.1:\(server.port)/", automaticallyCancelOnStreamError: true
            )
            .streamingDecodables(Point.self)
            for try await result in sequence {
                switch result {
                case .success(let point): values.append(point.x)
                case .failure: failures += 1
                }
            }
            Issue.record("expected the sequence to throw")
        } catch {
            guard case .responseSerializationFailed(.lineDecodingFailed(line: 5, _)) = error else {
                Issue.record("expected line 5's failure, got \(error)")
                return
            }
        }
        #expect(values == [1, 2, 3] && failures == 1, "values \(values), failures \(failures)")
        await session.shutdown()
    }

    @Test func aBadLineEndsTheStreamEvenWhenTheWholeBodyWasAlreadyRead() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead,
            .send(Array("HTTP/1.1 200 OK\r\nContent-Length: \(Self.ndjson.count)\r\n\r\n".utf8) + Self.ndjson),
        ])
        defer { server.stop() }
        let session = Session()
        // The handler is slow: the exchange has completed before it reaches the bad line.
        let recorder = StreamRecorder<Point, WickError> { _ in usleep(20_000) }
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/", automaticallyCancelOnStreamError: true)
            .responseStreamDecodable(of: Point.self, stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().map(\.x) == [1, 2, 3])
        guard case .responseSerializationFailed(.lineDecodingFailed(line: 5, _))? = events.onlyCompletionLast()?.error,
            case .responseSerializationFailed(.lineDecodingFailed(line: 5, _))? = request.error
        else {
            Issue.record("expected the stream to end with line 5's failure, got \(events)")
            return
        }

        // The sequence is read only after the request finished.
        let late = session.streamRequest("http://127.0.0.1:\(server.port)/", automaticallyCancelOnStreamError: true)
        let sequence = late.streamingDecodables(Point.self)
        #expect(try await waitUntil { late.isFinished })
        var values: [Int] = []
        var thrown: WickError?
        do {
            for try await result in sequence { if case .success(let point) = result { values.append(point.x) } }
        } catch {
            thrown = error
        }
        #expect(values == [1, 2, 3])
        guard case .responseSerializationFailed(.lineDecodingFailed(line: 5, _))? = thrown else {
            Issue.record("expected line 5's failure thrown, got \(String(describing: thrown))")
            return
        }
        await session.shutdown()
    }

    @Test func utf8CharactersSplitBetweenReadsArriveWhole() async throws {
        let text = "h€llo wörld 👋 ok"
        let body = Array(text.utf8)
        // Inside €, inside ö, and inside 👋 twice.
        let cuts = [2, 3, 10, 16, 17]
        let server = try FaultServer(
            steps: piecewise(head: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: body, cuts: cuts))
        defer { server.stop() }
        let session = Session()
        var strings: [String] = []
        for try await string in session.streamRequest("http://127.0.0.1:\(server.port)/").streamingStrings() {
            strings.append(string)
        }
        #expect(strings.joined() == text)
        #expect(!strings.contains { $0.contains("\u{FFFD}") })
        #expect(strings.count >= 3)

        let recorder = StreamRecorder<String, Never>()
        session.streamRequest("http://127.0.0.1:\(server.port)/").responseStreamString(stream: recorder.handler)
        #expect(await recorder.completed().values().joined() == text)
        await session.shutdown()
    }

    @Test func aValidationFailingAfterTheWholeBodyArrivedStillDeliversNoChunk() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .respond(status: 404, body: "not here", headers: ["Content-Type: text/plain"]),
        ])
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Data, Never>()
        // Slow enough that the exchange has completed before the validation decides.
        session.streamRequest("http://127.0.0.1:\(server.port)/")
            .validate { _, _ in
                usleep(50_000)
                return .success(())
            }
            .validate(statusCode: 200..<300)
            .responseStream(stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.count == 1)
        guard case .responseValidationFailed(.unacceptableStatusCode(404))? = events.onlyCompletionLast()?.error else {
            Issue.record("expected a 404 validation failure, got \(events)")
            return
        }
        #expect(events.onlyCompletionLast()?.response?.statusCode == 404)
        await session.shutdown()
    }

    @Test func aPassingSlowValidationHoldsTheBodyThenDeliversItAll() async throws {
        let body = Array(repeating: UInt8(ascii: "x"), count: 5_000)
        let server = try FaultServer(steps: [
            .readRequestHead,
            .send(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n".utf8) + body),
        ])
        defer { server.stop() }
        let session = Session()
        let validated = Shared(false)
        let chunkBeforeValidation = Shared(false)
        let recorder = StreamRecorder<Data, Never> { _ in
            if !validated.withLock({ $0 }) { chunkBeforeValidation.withLock { $0 = true } }
        }
        session.streamRequest("http://127.0.0.1:\(server.port)/")
            .validate(contentType: ["text/*"])
            .validate { _, _ in
                usleep(50_000)
                validated.withLock { $0 = true }
                return .success(())
            }
            .responseStream(stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.onlyCompletionLast()?.error == nil)
        #expect(joined(events.values()) == Data(body))
        #expect(!chunkBeforeValidation.withLock { $0 })
        await session.shutdown()
    }

    @Test func anUnacceptableContentTypeFailsValidation() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .respond(body: "{}", headers: ["Content-Type: application/json; charset=utf-8"]),
        ])
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Data, Never>()
        session.streamRequest("http://127.0.0.1:\(server.port)/", headers: ["Accept": "text/plain, text/html"])
            .validate().responseStream(stream: recorder.handler)
        let events = await recorder.completed()
        guard
            case .responseValidationFailed(.unacceptableContentType(_, "application/json; charset=utf-8"))? =
                events.onlyCompletionLast()?.error
        else {
            Issue.record("expected an unacceptable content type, got \(events)")
            return
        }
        #expect(events.count == 1)
        await session.shutdown()
    }

    @Test func onlyTheFinalResponseOfARedirectIsStreamed() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [.readRequestHead, .respond(status: 302, body: "moved", headers: ["Location: /final"], close: true)]
                : [.readRequestHead, .respond(body: "the final body")]
        }
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<String, Never>()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/start").responseStreamString(
            stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().joined() == "the final body")
        #expect(events.onlyCompletionLast()?.error == nil)
        #expect(request.requests.map(\.url.path) == ["/start", "/final"])
        await session.shutdown()
    }

    @Test func aConnectionLostMidBodyDeliversWhatArrivedThenTheError() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"),
            .pause(.milliseconds(30)),
            .close,
        ])
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Data, Never>()
        session.streamRequest("http://127.0.0.1:\(server.port)/").responseStream(stream: recorder.handler)
        let events = await recorder.completed()
        #expect(joined(events.values()) == Data("0123456789".utf8))
        guard case .sessionTaskFailed(.connectionLost)? = events.onlyCompletionLast()?.error else {
            Issue.record("expected connectionLost, got \(events)")
            return
        }

        var received = Data()
        do {
            for try await chunk in session.streamRequest("http://127.0.0.1:\(server.port)/").streamingData() {
                received.append(chunk)
            }
            Issue.record("expected the sequence to throw")
        } catch {
            guard case .sessionTaskFailed(.connectionLost) = error else {
                Issue.record("expected connectionLost, got \(error)")
                return
            }
        }
        #expect(received == Data("0123456789".utf8))
        await session.shutdown()
    }

    @Test func aRetriedStreamStartsOverForgettingThePartialLine() async throws {
        let full = Array("{\"x\":1,\"label\":\"a\"}\n{\"x\":2,\"label\":\"b\"}\n".utf8)
        let server = try FaultServer { index in
            index == 0
                ? [
                    .readRequestHead,
                    .send("HTTP/1.1 200 OK\r\nContent-Length: \(full.count)\r\n\r\n{\"x\":1,\"label\":\"a\"}\n{\"x\""),
                    .pause(.milliseconds(30)), .close,
                ]
                : [
                    .readRequestHead,
                    .send(Array("HTTP/1.1 200 OK\r\nContent-Length: \(full.count)\r\n\r\n".utf8) + full),
                ]
        }
        defer { server.stop() }
        let session = Session()
        let retryOnce = Retrier { request, _, _, completion in
            completion(request.retryCount == 0 ? .retry : .doNotRetry)
        }
        let recorder = StreamRecorder<Point, WickError>()
        session.streamRequest("http://127.0.0.1:\(server.port)/", interceptor: retryOnce)
            .responseStreamDecodable(of: Point.self, stream: recorder.handler)
        let events = await recorder.completed()
        // The first attempt's value, then the second attempt's body from its start.
        #expect(events.values().map(\.x) == [1, 1, 2])
        #expect(events.count == 4 && events.onlyCompletionLast()?.error == nil)
        await session.shutdown()
    }

    @Test func cancellingATaskWaitingForBytesEndsItAtOnceAndClosesTheConnection() async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nfirst"),
            .waitForClientClose(limit: .seconds(20)),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/")
        let received = Shared(0)
        let reading = Task {
            for try await chunk in request.streamingData() { received.withLock { $0 += chunk.count } }
        }
        #expect(try await waitUntil { received.withLock { $0 } == 5 })
        // The task now waits in `next()` for bytes that never come.
        try await Task.sleep(for: .milliseconds(20))
        reading.cancel()
        let result = await reading.result
        guard case .failure(WickError.explicitlyCancelled) = result else {
            Issue.record("expected explicitlyCancelled, got \(result)")
            return
        }
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        await finished(request)
        #expect(request.state == .cancelled)
        await session.shutdown()
    }

    @Test func aReaderThatFallsBehindStallsTheServersSend() async throws {
        // More than the socket buffers can ever hold (tcp_rmem and tcp_wmem allow at most 32 and
        // 4 MiB here), so the server's send must wait for the reader.
        let size = 40 << 20
        let server = try FaultServer(steps: [
            .readRequestHead,
            .send(
                Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n".utf8) + [UInt8](repeating: 7, count: size)),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/")
        var iterator = request.streamingData(bufferingPolicy: .bytes(256 * 1024)).makeAsyncIterator()
        var received = try #require(try await iterator.next()).count
        // The reader holds still: reading pauses, the socket buffers fill, the server blocks.
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.end(ofConnection: 0) == .running)
        while let chunk = try await iterator.next() { received += chunk.count }
        #expect(received == size)
        #expect(await server.waitForEnd(ofConnection: 0) == .completed)
        await session.shutdown()
    }

    /// Readers are woken once per batch of socket reads, not per chunk: bytes that arrive before
    /// the server stalls must still reach a handler and a sequence at once, not with the end.
    @Test(arguments: [false, true])
    func bytesBeforeAStallReachTheReaderWhileTheServerHoldsTheRest(sequence: Bool) async throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nfirst"),
            .waitForClientClose(limit: .seconds(20)),
        ])
        defer { server.stop() }
        let session = Session()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/")
        let received = Shared(0)
        if sequence {
            Task { for try await chunk in request.streamingData() { received.withLock { $0 += chunk.count } } }
        } else {
            request.responseStream { stream in
                if case .stream(.success(let chunk)) = stream.event { received.withLock { $0 += chunk.count } }
            }
        }
        #expect(try await waitUntil { received.withLock { $0 } == 5 })
        request.cancel()
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        await session.shutdown()
    }

    @Test func handlersRunOnTheQueueGiven() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .respond(body: "on my queue")])
        defer { server.stop() }
        let session = Session()
        let key = DispatchSpecificKey<String>()
        let mine = DispatchQueue(label: "test.stream.handlers", attributes: .concurrent)
        mine.setSpecific(key: key, value: "mine")
        let offQueue = Shared(0)
        let recorder = StreamRecorder<String, Never> { _ in
            if DispatchQueue.getSpecific(key: key) != "mine" { offQueue.withLock { $0 += 1 } }
        }
        session.streamRequest("http://127.0.0.1:\(server.port)/").responseStreamString(
            on: mine, stream: recorder.handler)
        #expect(await recorder.completed().values().joined() == "on my queue")
        #expect(offQueue.withLock { $0 } == 0)
        await session.shutdown()
    }

    @Test func encodableParametersGoInTheQuery() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .respond(body: "ok")])
        defer { server.stop() }
        let session = Session()
        var body = Data()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/search", parameters: ["q": "wick"])
        for try await chunk in request.streamingData() { body.append(chunk) }
        #expect(body == Data("ok".utf8))
        #expect(
            String(decoding: server.received(onConnection: 0), as: UTF8.self).hasPrefix(
                "GET /search?q=wick HTTP/1.1\r\n"))
        await session.shutdown()
    }

    @Test func aStreamRequestFromAnInvalidURLOrConvertibleFailsWithoutSending() async throws {
        let session = Session()
        let recorder = StreamRecorder<Data, Never>()
        session.streamRequest("ftp://127.0.0.1/file").responseStream(stream: recorder.handler)
        guard case .invalidURL? = await recorder.completed().onlyCompletionLast()?.error else {
            Issue.record("expected invalidURL")
            return
        }
        struct Broken: URLRequestConvertible {
            func asURLRequest() throws -> HTTPRequest { throw CocoaError(.fileNoSuchFile) }
        }
        do {
            for try await _ in session.streamRequest(Broken()).streamingData() {}
            Issue.record("expected a throw")
        } catch {
            // Alamofire's wrapping of what `asURLRequest()` threw, the error kept.
            guard case .createURLRequestFailed(let thrown as CocoaError) = error, thrown.code == .fileNoSuchFile else {
                Issue.record("expected createURLRequestFailed, got \(error)")
                return
            }
        }
        await session.shutdown()
    }
}
