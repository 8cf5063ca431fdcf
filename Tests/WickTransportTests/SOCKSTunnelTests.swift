// SOCKSTunnel over real sockets, the proxy played by a FaultServer script: the bytes each scheme
// sends, the request in origin form through the tunnel, and each failure the runner reports.
import Foundation
import Testing
import WickCore
import WickTLS
import WickTestSupport

@testable import WickTransport

struct SOCKSTunnelTests {
    /// A SOCKS5 success reply with an IPv4 bound address.
    private static let success: [UInt8] = [5, 0, 0, 1, 127, 0, 0, 1, 0x04, 0x38]

    private static func request(
        _ scheme: ProxyScheme, host: String, port: UInt16 = 8080, proxyPort: Int,
        credentials: ProxyCredentials? = nil
    ) -> TransportRequest {
        var request = TransportRequest(.get, .http, host: host, port: port, target: "/path")
        request.proxy = ProxyConfiguration(scheme, host: "127.0.0.1", port: UInt16(proxyPort), credentials: credentials)
        return request
    }

    /// The SOCKS5 connect request for a name.
    private static func connectRequest(name: String, port: UInt16) -> [UInt8] {
        [5, 1, 0, 3, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(port >> 8), UInt8(port & 0xFF)]
    }

    /// The connect failure `request` ends with, or nil (recorded as an issue) when it does not.
    private static func failure(of request: TransportRequest, _ client: TestRunner) async -> StreamChannelError? {
        do {
            _ = try await client.runner.execute(request, deadline: .now() + .seconds(10))
            Issue.record("\(request.host) through \(String(describing: request.proxy)) succeeded")
        } catch {
            if case .connectFailed(let failure) = error { return failure }
            Issue.record("expected a connect failure, got \(error)")
        }
        return nil
    }

    @Test func socks5hSendsTheNameThenTheRequestInOriginForm() async throws {
        let connect = Self.connectRequest(name: "origin.test", port: 8080)
        let server = try FaultServer(steps: [
            .read(count: 3), .send([5, 0]), .read(count: connect.count), .send(Self.success),
            .readRequestHead, .respond(body: "tunnelled"), .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        let response = try await client.runner.execute(
            Self.request(.socks5h, host: "origin.test", proxyPort: server.port), deadline: .now() + .seconds(10))
        #expect(response.body == Data("tunnelled".utf8))
        let received = server.received(onConnection: 0)
        #expect(Array(received.prefix(3 + connect.count)) == [5, 1, 0] + connect)
        let head = String(decoding: received.dropFirst(3 + connect.count), as: UTF8.self)
        #expect(head.hasPrefix("GET /path HTTP/1.1\r\n") && head.contains("\r\nHost: origin.test:8080\r\n"))
        await client.close()
    }

    @Test func socks5SendsTheAddressWithCredentials() async throws {
        let credentials = ProxyCredentials(username: "alice", password: "pw")
        let authentication: [UInt8] = [1, 5] + Array("alice".utf8) + [2] + Array("pw".utf8)
        let connect: [UInt8] = [5, 1, 0, 1, 192, 0, 2, 7, 0x1F, 0x90]
        let server = try FaultServer(steps: [
            .read(count: 4), .send([5, 2]), .read(count: authentication.count), .send([1, 0]),
            .read(count: connect.count), .send(Self.success), .readRequestHead, .respond(body: "ok"),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        let request = Self.request(.socks5, host: "192.0.2.7", proxyPort: server.port, credentials: credentials)
        let response = try await client.runner.execute(request, deadline: .now() + .seconds(10))
        #expect(response.body == Data("ok".utf8))
        #expect(Array(server.received(onConnection: 0).prefix(4 + authentication.count + connect.count))
            == [5, 2, 0, 2] + authentication + connect)
        await client.close()
    }

    @Test func socks5ResolvesTheNameItself() async throws {
        let server = try FaultServer(steps: [.read(count: 3), .send([5, 0]), .read(count: 4), .close])
        defer { server.stop() }
        let client = try TestRunner()
        let error = await Self.failure(of: Self.request(.socks5, host: "localhost", proxyPort: server.port), client)
        #expect(error == .proxy(.socks(proxy: "127.0.0.1:\(server.port)", .closed(step: .connect))))
        let received = server.received(onConnection: 0)
        // localhost resolves to 127.0.0.1 or ::1: an address type 1 or 4, never a name (3).
        #expect(Array(received.prefix(6)) == [5, 1, 0, 5, 1, 0])
        #expect(received.count >= 7 && (received[6] == 1 || received[6] == 4))
        await client.close()
    }

    @Test func socks4aSendsTheNameAfterTheUserID() async throws {
        let request: [UInt8] = [4, 1, 0x1F, 0x90, 0, 0, 0, 1] + Array("bob".utf8) + [0] + Array("origin.test".utf8) + [0]
        let server = try FaultServer(steps: [
            .read(count: request.count), .send([0, 90, 0, 0, 0, 0, 0, 0]), .readRequestHead, .respond(body: "v4"),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        let response = try await client.runner.execute(
            Self.request(
                .socks4a, host: "origin.test", proxyPort: server.port,
                credentials: ProxyCredentials(username: "bob", password: "ignored")),
            deadline: .now() + .seconds(10))
        #expect(response.body == Data("v4".utf8))
        #expect(Array(server.received(onConnection: 0).prefix(request.count)) == request)
        await client.close()
    }

    @Test func aProxyThatClosesNamesTheStep() async throws {
        let server = try FaultServer(steps: [.read(count: 3), .close])
        defer { server.stop() }
        let client = try TestRunner()
        let error = await Self.failure(of: Self.request(.socks5h, host: "origin.test", proxyPort: server.port), client)
        #expect(error == .proxy(.socks(proxy: "127.0.0.1:\(server.port)", .closed(step: .methodNegotiation))))
        await client.close()
    }

    @Test func bytesAfterTheSuccessReplyFailTheTunnel() async throws {
        let connect = Self.connectRequest(name: "origin.test", port: 8080)
        let server = try FaultServer(steps: [
            .read(count: 3), .send([5, 0]), .read(count: connect.count), .send(Self.success + Array("HTTP/1.1".utf8)),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let client = try TestRunner()
        let error = await Self.failure(of: Self.request(.socks5h, host: "origin.test", proxyPort: server.port), client)
        #expect(error == .proxy(.socks(proxy: "127.0.0.1:\(server.port)", .unexpectedBytes(count: 8))))
        await client.close()
    }

    @Test func whatTheProtocolCannotCarryFailsBeforeAnyByte() async throws {
        let server = try FaultServer(steps: [.waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let client = try TestRunner()
        let cases: [TransportRequest] = [
            Self.request(.socks5h, host: String(repeating: "a", count: 252) + ".com", proxyPort: server.port),
            Self.request(.socks4, host: "::1", proxyPort: server.port),
            Self.request(
                .socks5, host: "origin.test", proxyPort: server.port,
                credentials: ProxyCredentials(username: String(repeating: "u", count: 256), password: "")),
        ]
        for request in cases {
            let error = await Self.failure(of: request, client)
            guard case .reactor(.invalidAddress) = error else {
                Issue.record("expected invalidAddress, got \(String(describing: error))")
                continue
            }
        }
        #expect(await server.waitForConnections(3))
        #expect((0..<3).allSatisfy { server.received(onConnection: $0).isEmpty })
        await client.close()
    }
}
