// The fault server plays its scripts: bytes, pauses, half-close, reset, stalls, keep-alive.
import Testing
import WickTestSupport

@Suite struct FaultServerTests {
    @Test func sendsScriptedBytesAfterReadingTheRequestThenCloses() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "hello", close: true), .close])
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        client.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc")
        let (bytes, end, _) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n\r\nhello"))
        #expect(end == .endOfFile)
        #expect(await server.waitForEnd(ofConnection: 0) == .completed)
        #expect(String(decoding: server.received(onConnection: 0), as: UTF8.self).hasSuffix("\r\n\r\nabc"))
    }

    @Test func readsAChunkedRequestBodyToItsLastChunk() throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok"), .close])
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        client.send("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
        let (bytes, _, _) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("ok"))
    }

    @Test func pausesBetweenSends() throws {
        let server = try FaultServer(steps: [.send("a"), .pause(.milliseconds(300)), .send("b"), .close])
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        let (bytes, end, elapsed) = client.readToEnd()
        #expect(bytes == Array("ab".utf8) && end == .endOfFile)
        #expect(elapsed >= .milliseconds(280))
    }

    @Test func resetAbortsWithRST() throws {
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"), .pause(.milliseconds(50)),
            .reset,
        ])
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        client.send("GET / HTTP/1.1\r\n\r\n")
        let (bytes, end, _) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("partial"))
        #expect(end == .reset)
    }

    @Test func halfCloseSendsFINButKeepsReading() async throws {
        let server = try FaultServer(steps: [.send("bye"), .halfClose, .read(count: 4), .close])
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        let (bytes, end, _) = client.readToEnd()
        #expect(bytes == Array("bye".utf8) && end == .endOfFile)
        client.send("late")
        #expect(await server.waitForEnd(ofConnection: 0) == .completed)
        #expect(server.received(onConnection: 0) == Array("late".utf8))
    }

    @Test func stopInterruptsAStallPromptly() async throws {
        let server = try FaultServer(steps: [.pause(.seconds(60))])
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        #expect(await server.waitForConnections(1))
        let start = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(server.end(ofConnection: 0) == .interrupted)
    }

    @Test func repeatsAKeepAliveExchangeAndCountsConnections() throws {
        let server = try FaultServer { index in
            index == 0 ? [.repeating([.readRequestHead, .respond(body: "k")], times: 3), .close] : [.reset]
        }
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        for _ in 0..<3 { client.send("GET / HTTP/1.1\r\n\r\n") }
        let (bytes, end, _) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200").count == 4)
        #expect(end == .endOfFile)
        let second = try LoopbackClient(port: server.port)
        defer { second.close() }
        #expect(second.readToEnd().end == .reset)
        #expect(server.acceptedConnections == 2)
    }

    @Test func waitForClientCloseSeesTheClientGo() async throws {
        let server = try FaultServer(steps: [.waitForClientClose(limit: .seconds(5))])
        let client = try LoopbackClient(port: server.port)
        client.send("x")
        client.close()
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
    }
}
