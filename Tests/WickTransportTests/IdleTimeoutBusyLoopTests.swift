// Found by the soak: a loop busy past the idle timeout must not call a connection idle whose
// response is already waiting in its socket.
import Foundation
import Testing
import WickCore
import WickReactor
import WickTestSupport

@testable import WickTransport

struct IdleTimeoutBusyLoopTests {
    /// Blocks its loop in a read handler, as a long iteration of a busy or starved loop does.
    private final class BlockingReader: ChannelDelegate {
        let block: Duration
        init(block: Duration) { self.block = block }
        func channelRead(_ channel: Channel, bytes: Span<UInt8>) {
            let end = ContinuousClock.now + block
            while ContinuousClock.now < end { usleep(10_000) }
        }
        func channelClosed(_ channel: Channel, error: ReactorError?) {}
    }

    @Test func aResponseThatArrivedWhileTheLoopWasBusyIsNotIdle() async throws {
        // The server answers 300 ms after the request; the idle timeout is 500 ms; meanwhile the
        // loop is blocked for 1.2 s in another connection's read. The response sits in the
        // socket when the watchdog fires after that iteration: it must be read, not timed out.
        let server = try FaultServer(steps: [
            .readRequestHead, .respond(body: "warm"), .readRequestHead, .pause(.milliseconds(300)),
            .respond(body: "here all along"),
        ])
        defer { server.stop() }
        let other = try FaultServer(steps: [.send("x"), .pause(.seconds(5))])
        defer { other.stop() }
        let client = try TestRunner { $0.driver.idleTimeout = .milliseconds(500) }
        _ = try await client.send(port: server.port, "/warm")

        let response = Task { try await client.send(port: server.port, "/late") }
        // Once the request is in, block the loop in a read of the other connection.
        let deadline = ContinuousClock.now + .seconds(10)
        while String(decoding: server.received(onConnection: 0), as: UTF8.self).components(separatedBy: "GET").count < 3,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(1))
        }
        let loop = client.runner.loop
        let blocker = try await Connector(resolver: client.group.resolver).connect(
            host: "127.0.0.1", port: UInt16(other.port), on: loop)
        loop.execute { blocker.start(delegate: BlockingReader(block: .milliseconds(1_200))) }

        let body = try await response.value.body
        #expect(String(decoding: body, as: UTF8.self) == "here all along")
        loop.execute { blocker.close() }
        await client.close()
    }
}
