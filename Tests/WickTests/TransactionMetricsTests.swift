// TransactionMetrics' connection facts: addresses, bytes each way, TLS version and cipher, Unix sockets, a replay.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct TransactionMetricsNginxTests {
    @Test func plainHTTPReportsBothAddressesAndTheBytesEachWay() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let first = try #require(await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response.metrics)
        #expect(first.remoteAddress == "127.0.0.1:\(nginx.httpPort)")
        let local = try #require(first.localAddress)
        #expect(local.hasPrefix("127.0.0.1:") && local != first.remoteAddress)
        #expect(first.tlsVersion == nil && first.tlsCipherSuite == nil)
        // The status line and the body at least; the request line and Host at least.
        #expect(first.responseBytesReceived >= "HTTP/1.1 200 OK\r\n\r\n".utf8.count + 1_024)
        #expect(first.responseBodyBytes == 1_024)
        #expect(
            first.requestBytesSent >= "GET /bytes/1k HTTP/1.1\r\nHost: 127.0.0.1:\(nginx.httpPort)\r\n\r\n".utf8.count)
        #expect(first.connection?.isReused == false)
        // The same connection again: the same addresses, reported as reused.
        let second = try #require(
            await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response.metrics)
        #expect(second.isReused && second.connection?.isReused == true)
        #expect(second.localAddress == local && second.remoteAddress == first.remoteAddress)
        #expect(second.description.contains("reused connection \(local) → 127.0.0.1:\(nginx.httpPort)"))
        #expect(second.description.contains("received \(second.responseBytesReceived) B"))
        await session.shutdown()
    }

    @Test func bytesSentCountTheBodyAndBytesReceivedAreTheEncodedOnes() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let body = Data(TestPayload.bytes(count: 10_000))
        let name = "metrics-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let upload = await session.upload(body, to: "\(nginx.httpBase)/upload/\(name)", method: .put)
            .serializingData().response
        let sent = try #require(upload.metrics)
        #expect(sent.requestBytesSent >= "PUT /upload/\(name) HTTP/1.1\r\n\r\n".utf8.count + body.count)
        _ = await session.request("\(nginx.httpBase)/upload/\(name)", method: .delete).serializingData().response
        // gzip on the wire, 1 MiB once decoded: the wire count is the compressed one.
        let text = await session.request("\(nginx.httpBase)/text/1m.txt").serializingData().response
        let metrics = try #require(text.metrics)
        #expect(metrics.responseBodyBytes == 1 << 20)
        #expect(text.response?.headers["Content-Encoding"] == "gzip")
        #expect(metrics.responseBytesReceived > 0 && metrics.responseBytesReceived < 1 << 19)
        await session.shutdown()
    }

    @Test func httpsReportsTLS13AndTheCipherSuite() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession { $0.trustRoots = roots }
        let metrics = try #require(
            await session.request("https://127.0.0.1:\(nginx.httpsPort)/bytes/1k").serializingData().response.metrics)
        #expect(metrics.remoteAddress == "127.0.0.1:\(nginx.httpsPort)")
        #expect(metrics.localAddress?.hasPrefix("127.0.0.1:") == true)
        #expect(metrics.tlsVersion == .v1_3)
        let cipher = try #require(metrics.tlsCipherSuite)
        #expect(cipher.hasPrefix("TLS_"), "\(cipher)")
        // Plaintext counts: the same order as over plain http.
        #expect(metrics.responseBytesReceived >= 1_024 && metrics.requestBytesSent > 0)
        #expect(metrics.description.contains("TLSv1.3 \(cipher)"))
        await session.shutdown()
    }

    @Test func overAUnixSocketTheRemoteAddressIsThePathAndThereIsNoLocalOne() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try SessionNginxTests.testRoots(nginx)
        let session = makeSession { $0.trustRoots = roots }
        let plain = try #require(
            await session.request(SessionUnixSocketTests.url(socket: nginx.unixSocket, "/bytes/1k"))
                .serializingData().response.metrics)
        #expect(plain.remoteAddress == nginx.unixSocket && plain.localAddress == nil)
        #expect(plain.tlsVersion == nil && plain.responseBytesReceived >= 1_024)
        #expect(plain.connection?.description == "new connection \(nginx.unixSocket)")
        let secure = try #require(
            await session.request(SessionUnixSocketTests.url("https+unix", socket: nginx.tlsUnixSocket, "/bytes/1k"))
                .serializingData().response.metrics)
        #expect(secure.remoteAddress == nginx.tlsUnixSocket && secure.localAddress == nil)
        #expect(secure.tlsVersion == .v1_3 && secure.tlsCipherSuite?.hasPrefix("TLS_") == true)
        await session.shutdown()
    }
}

struct TransactionMetricsReplayTests {
    @Test func aReplayedExchangeReportsTheFreshConnectionAndItsOwnBytes() async throws {
        let server = try FaultServer { index in
            index == 0
                ? [.readRequest, .respond(body: "one"), .readRequest, .close]
                : [.readRequest, .respond(body: "two"), .waitForClientClose(limit: .seconds(10))]
        }
        defer { server.stop() }
        let session = Session()
        let url = "http://127.0.0.1:\(server.port)/x"
        let first = try #require(await session.request(url).serializingData().response.metrics)
        // The reused connection was closed: the GET is replayed on a new one.
        let second = try #require(await session.request(url).serializingData().response.metrics)
        #expect(second.wasReplayed && !second.isReused && second.connection?.isReused == false)
        #expect(second.remoteAddress == "127.0.0.1:\(server.port)" && second.remoteAddress == first.remoteAddress)
        #expect(second.localAddress != nil && second.localAddress != first.localAddress)
        // The same request and response again: the replay's counts, not the sum of both tries.
        #expect(second.requestBytesSent == first.requestBytesSent)
        #expect(second.responseBytesReceived == first.responseBytesReceived)
        #expect(second.description.contains("new connection \(second.localAddress ?? "") → "))
        #expect(second.description.contains("replayed"))
        await session.shutdown()
    }
}
