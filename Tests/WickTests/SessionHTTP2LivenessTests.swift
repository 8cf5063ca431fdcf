// Session over HTTP/2 (prior knowledge) against scripted servers that stop answering: one that
// never ACKs a PING, one that never ACKs the client's SETTINGS (RFC 9113 §6.5.3).
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite("HTTP/2 liveness")
struct SessionHTTP2LivenessTests {
    /// The server's SETTINGS ACK.
    static let settingsAck = FaultStep.http2Frame(type: 0x4, flags: 0x1, stream: 0)

    /// A prior-knowledge session with short liveness settings.
    static func session(
        pingInterval: Duration? = .milliseconds(200), pingAckTimeout: Duration = .milliseconds(300),
        settingsAckTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(10)
    ) -> Session {
        makeSession {
            $0.http2PriorKnowledge = true
            $0.requestTimeout = requestTimeout
            $0.http2PingInterval = pingInterval
            $0.http2PingAckTimeout = pingAckTimeout
            $0.http2SettingsAckTimeout = settingsAckTimeout
        }
    }

    /// Whether the connection's received bytes hold a GOAWAY whose debug data names `kind`.
    static func sawGoAway(_ server: FaultServer, connection: Int, naming kind: String) -> Bool {
        let received = server.received(onConnection: connection)
        let needle = Array(kind.utf8)
        return received.count >= needle.count
            && (0...(received.count - needle.count)).contains {
                received[$0..<($0 + needle.count)].elementsEqual(needle)
            }
    }

    /// Answers stream `stream` with `200 OK` and `text`.
    static func answer(_ stream: UInt32, _ text: String) -> [FaultStep] {
        [
            .readHTTP2Frame(type: 0x1, stream: stream), .http2OKHeaders(stream: stream),
            .http2Data(text, stream: stream, endStream: true),
        ]
    }

    @Test func anIdlePooledConnectionWhosePeerStopsAnsweringIsClosedAndTheNextRequestGetsANewOne() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { index in
            index == 0
                ? [.http2Settings(), Self.settingsAck] + Self.answer(1, "first")
                    + [.readHTTP2Frame(type: 0x6, stream: 0), .waitForClientClose(limit: .seconds(5))]
                : [.http2Settings(), Self.settingsAck] + Self.answer(1, "second") + [.pause(.seconds(1)), .close]
        }
        let session = Self.session()
        let base = "http://127.0.0.1:\(server.port)"
        let first = await session.request("\(base)/a").serializingData().response
        #expect(first.value.map { String(decoding: $0, as: UTF8.self) } == "first")
        // The PING goes out after 200 ms of silence; 300 ms without its ACK close the connection.
        #expect(await server.waitForEnd(ofConnection: 0, timeout: .seconds(5)) == .clientClosed)
        #expect(
            Self.sawGoAway(server, connection: 0, naming: "pingTimeout"),
            "\(server.received(onConnection: 0).suffix(80).map { String($0, radix: 16) })")
        let second = await session.request("\(base)/b").serializingData().response
        #expect(
            second.value.map { String(decoding: $0, as: UTF8.self) } == "second", "\(String(describing: second.error))")
        #expect(second.metrics?.isReused == false && second.metrics?.wasReplayed == false)
        #expect(server.acceptedConnections == 2)
        await session.shutdown()
        server.stop()
    }

    @Test func aGetOnAReusedConnectionThatStopsAnsweringIsSentAgainOnANewOne() async throws {
        // The silent server outwaits the client's PING timeout (6 s below) by far.
        let server = try FaultServer(connectionTimeLimit: .seconds(30)) { index in
            index == 0
                ? [.http2Settings(), Self.settingsAck] + Self.answer(1, "first")
                    + [.readHTTP2Frame(type: 0x1, stream: 3), .waitForClientClose(limit: .seconds(20))]
                : [.http2Settings(), Self.settingsAck] + Self.answer(1, "again") + [.pause(.seconds(1)), .close]
        }
        // The second request must find the connection still pooled: it has 6 s (the PING after
        // 1 s of silence, then 5 s for its ACK), enough on a machine loaded by the whole suite
        // running in parallel (1.5 s was not, once in a while, and 3 s failed once in four runs
        // of the TLS and HTTP/2 suites together, whose tests can hold both of Swift's pool
        // threads for seconds on this 2-core machine).
        let session = Self.session(pingInterval: .seconds(1), pingAckTimeout: .seconds(5))
        let base = "http://127.0.0.1:\(server.port)"
        _ = await session.request("\(base)/a").serializingData().response
        let replayed = await session.request("\(base)/b").serializingData().response
        #expect(
            replayed.value.map { String(decoding: $0, as: UTF8.self) } == "again",
            "\(String(describing: replayed.error))")
        #expect(replayed.metrics?.wasReplayed == true)
        #expect(server.acceptedConnections == 2)
        await session.shutdown()
        server.stop()
    }

    @Test func aPostOnAConnectionThatStopsAnsweringFailsAsUnresponsive() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(30)) { _ in
            [.http2Settings(), Self.settingsAck] + Self.answer(1, "first")
                + [.readHTTP2Frame(type: 0x1, stream: 3), .waitForClientClose(limit: .seconds(20))]
        }
        // As above: 6 s for the second request to find the connection pooled; the request
        // timeout (30 s) is far beyond what the PING takes to find the server gone.
        let session = Self.session(
            pingInterval: .seconds(1), pingAckTimeout: .seconds(5), requestTimeout: .seconds(30))
        let base = "http://127.0.0.1:\(server.port)"
        _ = await session.request("\(base)/a").serializingData().response
        let started = ContinuousClock.now
        let result = await session.request("\(base)/b", method: .post).serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result else {
            Issue.record("expected an unresponsive connection, got \(result)")
            return
        }
        #expect(loss.cause == .unresponsive && loss.requestMayHaveBeenProcessed)
        #expect(loss.reason.contains("PING"))
        #expect(ContinuousClock.now - started < .seconds(20), "found by the PING, not the 30 s request timeout")
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
        server.stop()
    }

    @Test func aServerThatNeverAcknowledgesTheClientsSettingsFailsTheConnectionWithSettingsTimeout() async throws {
        let server = try FaultServer(connectionTimeLimit: .seconds(10)) { _ in
            [.http2Settings(), .readHTTP2Frame(type: 0x1, stream: 1), .waitForClientClose(limit: .seconds(5))]
        }
        let session = Self.session(pingInterval: nil, settingsAckTimeout: .milliseconds(300))
        let result = await session.request("http://127.0.0.1:\(server.port)/a").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result else {
            Issue.record("expected SETTINGS_TIMEOUT, got \(result)")
            return
        }
        #expect(loss.cause == .unresponsive && loss.reason.contains("SETTINGS_TIMEOUT"))
        #expect(await server.waitForEnd(ofConnection: 0, timeout: .seconds(5)) == .clientClosed)
        // GOAWAY with error code SETTINGS_TIMEOUT (0x4) and the kind as debug data.
        let goAway = FaultStep.http2FrameBytes(
            type: 0x7, stream: 0, payload: [0, 0, 0, 0, 0, 0, 0, 4] + Array("settingsTimeout".utf8))
        let received = server.received(onConnection: 0)
        #expect(Array(received.suffix(goAway.count)) == goAway, "\(received.suffix(40).map { String($0, radix: 16) })")
        await session.shutdown()
        server.stop()
    }
}
