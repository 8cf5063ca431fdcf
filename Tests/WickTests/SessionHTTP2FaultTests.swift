// Session over HTTP/2 (prior knowledge) against a scripted server: GOAWAY mid-stream, resets,
// refused streams, protocol errors, a send window that never opens.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite("HTTP/2 faults")
struct SessionHTTP2FaultTests {
    /// A session that speaks HTTP/2 with prior knowledge to cleartext origins.
    static func session(requestTimeout: Duration = .seconds(10)) -> Session {
        makeSession {
            $0.http2PriorKnowledge = true
            $0.requestTimeout = requestTimeout
        }
    }

    /// Starts `first`, waits for it to open its stream, then starts `second`: stream 1, then 3
    /// (the scripts also wait for both HEADERS before answering, so a slow machine only slows them).
    static func twoRequests(_ session: Session, _ first: String, _ second: String) async throws -> (
        DataRequest, DataRequest
    ) {
        let a = session.request(first)
        a.resume()
        try await Task.sleep(for: .milliseconds(100))
        let b = session.request(second)
        b.resume()
        return (a, b)
    }

    @Test func goAwayMidStreamFinishesTheOldStreamAndReplaysTheUnprocessedOneOnANewConnection() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { index in
            index == 0
                ? [
                    .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .readHTTP2Frame(type: 0x1, stream: 3),
                    .http2OKHeaders(stream: 1), .http2Data("hello ", stream: 1), .http2GoAway(lastStream: 1),
                    .http2Data("world", stream: 1, endStream: true), .pause(.milliseconds(300)), .close,
                ]
                : [
                    .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .http2OKHeaders(stream: 1),
                    .http2Data("again", stream: 1, endStream: true), .pause(.seconds(1)), .close,
                ]
        }
        let session = Self.session()
        let base = "http://127.0.0.1:\(server.port)"
        let (first, second) = try await Self.twoRequests(session, "\(base)/a", "\(base)/b")
        let one = await first.serializingData().response
        let two = await second.serializingData().response
        #expect(
            one.value.map { String(decoding: $0, as: UTF8.self) } == "hello world", "\(String(describing: one.error))")
        #expect(two.value.map { String(decoding: $0, as: UTF8.self) } == "again", "\(String(describing: two.error))")
        #expect(two.metrics?.wasReplayed == true && one.metrics?.wasReplayed == false)
        #expect(server.acceptedConnections == 2)
        await session.shutdown()
        server.stop()
    }

    @Test func aResetMidBodyFailsThatStreamOnlyAndNamesTheCode() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [
                .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .readHTTP2Frame(type: 0x1, stream: 3),
                .http2OKHeaders(stream: 1), .http2Data("part", stream: 1), .http2Reset(stream: 1, code: 2),
                .http2OKHeaders(stream: 3), .http2Data("whole", stream: 3, endStream: true),
                .pause(.milliseconds(500)), .close,
            ]
        }
        let session = Self.session()
        let base = "http://127.0.0.1:\(server.port)"
        let (first, second) = try await Self.twoRequests(session, "\(base)/a", "\(base)/b")
        let failed = await first.serializingData().result
        let fine = await second.serializingData().response
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = failed else {
            Issue.record("expected a lost stream, got \(failed)")
            return
        }
        #expect(loss.cause == .streamReset && loss.requestMayHaveBeenProcessed)
        #expect(loss.reason.contains("INTERNAL_ERROR"))
        #expect(fine.value.map { String(decoding: $0, as: UTF8.self) } == "whole")
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
        server.stop()
    }

    @Test func aRefusedStreamIsSentAgainOnTheSameConnection() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [
                .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .http2Reset(stream: 1, code: 7),
                .readHTTP2Frame(type: 0x1, stream: 3), .http2OKHeaders(stream: 3),
                .http2Data("ok", stream: 3, endStream: true),
                .pause(.milliseconds(500)), .close,
            ]
        }
        let session = Self.session()
        let response = await session.request("http://127.0.0.1:\(server.port)/a").serializingData().response
        #expect(response.value.map { String(decoding: $0, as: UTF8.self) } == "ok")
        #expect(response.metrics?.wasReplayed == true)
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
        server.stop()
    }

    @Test func aFrameOnAStreamTheClientNeverOpenedIsAConnectionError() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [
                .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .http2Data("stray", stream: 2),
                .pause(.milliseconds(500)),
            ]
        }
        let session = Self.session()
        let result = await session.request("http://127.0.0.1:\(server.port)/a").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result else {
            Issue.record("expected a protocol error, got \(result)")
            return
        }
        #expect(loss.cause == .http2ProtocolError)
        await session.shutdown()
        server.stop()
    }

    @Test func aStreamSilentPastTheIdleTimeoutFailsAsIdleWhileTheConnectionLives() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [
                .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .http2OKHeaders(stream: 1),
                .http2Data("then nothing", stream: 1), .pause(.seconds(3)),
            ]
        }
        let session = makeSession {
            $0.http2PriorKnowledge = true
            $0.idleTransferTimeout = .milliseconds(400)
        }
        let result = await session.request("http://127.0.0.1:\(server.port)/a").serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, _))) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(phase == .idleTransfer)
        await session.shutdown()
        server.stop()
    }

    @Test func theSessionsWindowsAndStreamLimitReachTheWire() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [.http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .http2OKHeaders(stream: 1)]
                + [.http2Data("one", stream: 1, endStream: true)]
                + [.readHTTP2Frame(type: 0x1, stream: 3), .http2OKHeaders(stream: 3)]
                + [.http2Data("two", stream: 3, endStream: true), .pause(.seconds(1))]
        }
        let session = makeSession {
            $0.http2PriorKnowledge = true
            $0.http2StreamWindowSize = 200_000
            $0.http2ConnectionWindowSize = 3_000_000
            $0.http2MaximumConcurrentStreams = 1
            $0.maximumConnectionsPerHost = 1
        }
        let base = "http://127.0.0.1:\(server.port)"
        // One stream at a time: the second request waits for the first stream, on the one connection.
        async let first = session.request("\(base)/1").serializingData().result
        async let second = session.request("\(base)/2").serializingData().result
        let bodies = await [first, second].map { $0.map { String(decoding: $0, as: UTF8.self) } }
        #expect(Set(bodies.compactMap { try? $0.get() }) == ["one", "two"], "\(bodies)")
        #expect(server.acceptedConnections == 1)
        // After the 24-byte preface: SETTINGS, whose INITIAL_WINDOW_SIZE (0x4) is the stream
        // window, then the connection's WINDOW_UPDATE raising 65,535 to the connection window.
        let received = Array(server.received(onConnection: 0))
        func number(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
        let settingsLength = number(received[24..<27])
        var initialWindow: Int?
        for at in stride(from: 33, to: 33 + settingsLength, by: 6) where number(received[at..<(at + 2)]) == 0x4 {
            initialWindow = number(received[(at + 2)..<(at + 6)])
        }
        #expect(initialWindow == 200_000)
        let update = 33 + settingsLength
        let updateType = received[update + 3]
        let increment = number(received[(update + 9)..<(update + 13)])
        #expect(updateType == 0x8)
        #expect(increment == 3_000_000 - 65_535)
        await session.shutdown()
        server.stop()
    }

    @Test func streamsWithDifferentDeadlinesEachEndAtTheirOwnOnOneConnection() async throws {
        // The connection's one watchdog: stream 3's earlier deadline replaces the timer armed
        // for stream 1's, and stream 1 still ends at its own once stream 3 is gone.
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [
                .http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .readHTTP2Frame(type: 0x1, stream: 3),
                .pause(.seconds(4)),
            ]
        }
        // When each request finished, taken on the thread that finished it: the awaiting task
        // may resume seconds later on a loaded machine (the cooperative pool busy with other
        // suites), which is no delay of Wick's.
        let finishes = FinishClock()
        var configuration = Session.Configuration()
        configuration.http2PriorKnowledge = true
        configuration.requestTimeout = .seconds(10)
        let session = Session(configuration: configuration, eventMonitors: [finishes])
        let base = "http://127.0.0.1:\(server.port)"
        let started = ContinuousClock.now
        let slow = session.request("\(base)/slow", requestModifier: { $0.timeoutInterval = 2 })
        slow.resume()
        try await Task.sleep(for: .milliseconds(100))
        // Timed from its own start: on a loaded machine this task may resume from the sleep
        // late (the cooperative pool busy with other suites), which is no delay of Wick's.
        let fastStarted = ContinuousClock.now
        let fast = session.request("\(base)/fast", requestModifier: { $0.timeoutInterval = 0.4 })
        let fastResult = await fast.serializingData().result
        let slowResult = await slow.serializingData().result
        let fastEnded = try #require(finishes.instant(of: "/fast")) - fastStarted
        let slowEnded = try #require(finishes.instant(of: "/slow")) - started
        for result in [fastResult, slowResult] {
            guard case .failure(.sessionTaskFailed(.timedOut)) = result else {
                Issue.record("expected a timeout, got \(result)")
                return
            }
        }
        #expect(fastEnded >= .milliseconds(350) && fastEnded < .milliseconds(1_700), "\(fastEnded)")
        #expect(slowEnded >= .seconds(2) && slowEnded < .milliseconds(3_500), "\(slowEnded)")
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
        server.stop()
    }

    @Test func aSendWindowThatNeverOpensEndsAtTheDeadlineWhileSending() async throws {
        // SETTINGS_INITIAL_WINDOW_SIZE (4) = 0: the request body can never go.
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [.http2Settings([(0x4, 0)]), .pause(.seconds(3))]
        }
        let session = Self.session(requestTimeout: .milliseconds(500))
        let result = await session.request(
            "http://127.0.0.1:\(server.port)/upload", method: .post, body: Data(repeating: 7, count: 1_000)
        ).serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(let phase, _))) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(phase == .sendingRequest)
        await session.shutdown()
        server.stop()
    }
}

/// Records when each request finished (by its URL's path), inline on the thread that finished it.
private final class FinishClock: EventMonitor {
    private let finished = Shared<[String: ContinuousClock.Instant]>([:])
    let receivesEventsInline = true
    var handledEvents: EventMonitorEvents { .didFinish }

    func requestDidFinish(_ request: Request) {
        let now = ContinuousClock.now
        guard let path = request.request?.url.path else { return }
        finished.withLock { $0[path] = now }
    }

    /// When the request to `path` finished; nil before it has.
    func instant(of path: String) -> ContinuousClock.Instant? { finished.withLock { $0[path] } }
}
