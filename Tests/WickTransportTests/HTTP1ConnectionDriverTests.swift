// The connection driver over real loopback sockets, against scripted servers.
import Testing
import WickCore
import WickHTTP1
import WickPool
import WickTestSupport

@testable import WickTransport

@Suite struct HTTP1ConnectionDriverTests {
    private static let chunkedResponse =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Sum: 11\r\n\r\n"

    @Test func getWithContentLengthReleasesTheConnectionAndReusesIt() async throws {
        let server = try FaultServer(steps: [
            .repeating([.readRequest, .respond(body: "hello", headers: ["Keep-Alive: timeout=5, max=9"])], times: 2),
            .pause(.seconds(5)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let first = await harness.run()
        let second = await harness.run()
        #expect(first.status == 200 && first.body == Array("hello".utf8) && first.failure == nil)
        #expect(first.requestSent && first.responseStarted)
        #expect(first.facts?.connectionWasReused == false)
        #expect(second.status == 200 && second.failure == nil && second.facts?.connectionWasReused == true)
        #expect(try await harness.waitFor { $0.released == 2 })
        #expect(harness.ownerEvents.keepAlive == KeepAliveHint(timeout: .seconds(5), maximumRequests: 9))
        #expect(server.acceptedConnections == 1)
        await harness.shutdown()
    }

    @Test func chunkedResponseWithTrailers() async throws {
        let server = try FaultServer(steps: [.readRequest, .send(Self.chunkedResponse), .pause(.seconds(5))])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run()
        #expect(outcome.body == Array("hello world".utf8) && outcome.failure == nil)
        #expect(outcome.trailers?["x-sum"] == "11")
        #expect(try await harness.waitFor { $0.released == 1 })
        await harness.shutdown()
    }

    @Test func closeDelimitedResponseSucceedsAndClosesTheConnection() async throws {
        let server = try FaultServer(steps: [.readRequest, .send("HTTP/1.1 200 OK\r\n\r\nuntil the end"), .close])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run()
        #expect(outcome.failure == nil && outcome.body == Array("until the end".utf8))
        #expect(try await harness.waitFor { $0.closed })
        #expect(harness.ownerEvents.released == 0 && harness.ownerEvents.closeError == nil)
        await harness.shutdown()
    }

    @Test func postSendsTheWholeBodyInParts() async throws {
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok"), .pause(.seconds(5))])
        defer { server.stop() }
        var settings = HTTP1ConnectionDriver.Settings()
        settings.requestBodyPartSize = 10_000
        let harness = try await DriverHarness.connect(port: server.port, settings: settings)
        let outcome = await harness.run(.post, "/upload", body: body)
        #expect(outcome.failure == nil && outcome.status == 200 && outcome.requestSent)
        #expect(Array(server.received(onConnection: 0).suffix(body.count)) == body)
        #expect(try await harness.waitFor { $0.released == 1 })
        await harness.shutdown()
    }

    @Test func expectContinueSendsTheBodyAfter100Continue() async throws {
        let body = Array(repeating: UInt8(ascii: "x"), count: 1_000)
        let server = try FaultServer(steps: [
            .readRequestHead, .send("HTTP/1.1 100 Continue\r\n\r\n"), .read(count: body.count), .respond(body: "ok"),
            .pause(.seconds(5)),
        ])
        defer { server.stop() }
        var settings = HTTP1ConnectionDriver.Settings()
        settings.continueTimeout = .seconds(30)
        let harness = try await DriverHarness.connect(port: server.port, settings: settings)
        let outcome = await harness.run(.put, "/", body: body, expectContinue: true)
        #expect(outcome.failure == nil && outcome.status == 200)
        #expect(String(decoding: server.received(onConnection: 0), as: UTF8.self).contains("Expect: 100-continue"))
        await harness.shutdown()
    }

    @Test func expectContinueTimerSendsTheBodyAnyway() async throws {
        let body = Array(repeating: UInt8(ascii: "y"), count: 500)
        let server = try FaultServer(steps: [.readRequest, .respond(body: "ok"), .pause(.seconds(5))])
        defer { server.stop() }
        var settings = HTTP1ConnectionDriver.Settings()
        settings.continueTimeout = .milliseconds(50)
        let harness = try await DriverHarness.connect(port: server.port, settings: settings)
        let outcome = await harness.run(.put, "/", body: body, expectContinue: true)
        #expect(outcome.failure == nil && outcome.status == 200)
        #expect(Array(server.received(onConnection: 0).suffix(body.count)) == body)
        await harness.shutdown()
    }

    @Test func early413StopsTheBodyAndClosesAfterTheResponse() async throws {
        let body = Array(repeating: UInt8(ascii: "z"), count: 16 * 1024 * 1024)
        let server = try FaultServer(steps: [
            // The server reads no more: the body fills the socket buffers and stalls, so however
            // late a loaded machine runs the client, the 413 arrives before the body is all sent.
            .readRequestHead, .respond(status: 413, body: "too large", close: true), .pause(.seconds(10)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(.post, "/", body: body)
        #expect(outcome.status == 413 && outcome.failure == nil && !outcome.requestSent)
        #expect(outcome.facts.map { $0.requestBytesWritten < body.count } == true)
        #expect(try await harness.waitFor { $0.closed })
        #expect(harness.ownerEvents.released == 0)
        await harness.shutdown()
    }

    @Test func serverClosingAnIdleConnectionIsReported() async throws {
        let server = try FaultServer(steps: [.readRequest, .respond(body: "a"), .pause(.milliseconds(200)), .close])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run()
        #expect(outcome.failure == nil)
        #expect(try await harness.waitFor { $0.closed })
        #expect(harness.ownerEvents.released == 1 && harness.ownerEvents.closeError == nil)
        await harness.shutdown()
    }

    @Test func resetMidResponseFailsAndIsNotReused() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"), .pause(.milliseconds(100)),
            .reset,
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run()
        #expect(outcome.status == 200 && outcome.body == Array("abc".utf8))
        switch outcome.failure {
        case .connectionFailed?, .invalidResponse?: break
        default: Issue.record("expected a connection failure, got \(String(describing: outcome.failure))")
        }
        #expect(outcome.facts?.responseBytesReceived ?? 0 > 0)
        #expect(try await harness.waitFor { $0.closed })
        #expect(harness.ownerEvents.released == 0)
        await harness.shutdown()
    }

    @Test func unsolicitedBytesWhileIdleCloseTheConnection() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .respond(body: "a"), .pause(.milliseconds(200)), .send("HTTP/1.1 200 OK\r\n\r\n"),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run()
        #expect(outcome.failure == nil)
        #expect(try await harness.waitFor { $0.closed })
        #expect(harness.ownerEvents.released == 1)
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        await harness.shutdown()
    }

    @Test func cancellationMidResponseClosesTheConnection() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n0123456789"),
            .waitForClientClose(limit: .seconds(10)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(cancelAfterBodyBytes: 5)
        guard case .cancelled? = outcome.failure else {
            Issue.record("expected cancelled, got \(String(describing: outcome.failure))")
            return
        }
        #expect(try await harness.waitFor { $0.closed })
        #expect(await server.waitForEnd(ofConnection: 0) == .clientClosed)
        await harness.shutdown()
    }

    /// A full consumer pauses socket reads; when it wants more, reading resumes and the rest of
    /// the body arrives. The server sends far more than the socket buffers hold meanwhile.
    @Test func aFullConsumerPausesReadingUntilItWantsMore() async throws {
        let length = 8 * 1024 * 1024
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n"),
            .send([UInt8](repeating: 0x61, count: length)), .waitForClientClose(limit: .seconds(20)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(pauseAfterBodyBytes: 1, pause: .milliseconds(200))
        #expect(outcome.pausedReading && outcome.failure == nil && outcome.body.count == length)
        #expect(try await harness.waitFor { $0.released == 1 })
        await harness.shutdown()
    }

    /// A body that spans reads lands in the consumer's memory (no copy from the loop's buffer),
    /// whole and in order, and the connection is released after it.
    @Test func aLargeBodyIsReadIntoTheConsumersMemory() async throws {
        let length = 3 * 1024 * 1024 + 7
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n"), .pause(.milliseconds(50)),
            .send(body), .pause(.seconds(5)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(inPlaceCapacity: length)
        #expect(outcome.failure == nil && outcome.body == body && outcome.collected == body)
        #expect(outcome.inPlaceParts > 0)
        #expect(try await harness.waitFor { $0.released == 1 })
        await harness.shutdown()
    }

    /// A chunk's data lands in the consumer's memory too; the read stops at the chunk's end, so
    /// its framing and the trailers are parsed from the loop's buffer as before.
    @Test func aLargeChunkIsReadIntoTheConsumersMemory() async throws {
        let length = 1 << 20
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n"),
            .pause(.milliseconds(50)), .send(body), .send("\r\n3\r\nend\r\n0\r\nX-Sum: 1\r\n\r\n"), .pause(.seconds(5)),
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(inPlaceCapacity: 2 * length)
        let expected = body + Array("end".utf8)
        #expect(outcome.failure == nil && outcome.body == expected && outcome.collected == expected)
        #expect(outcome.inPlaceParts > 0 && outcome.trailers?["x-sum"] == "1")
        #expect(try await harness.waitFor { $0.released == 1 })
        await harness.shutdown()
    }

    /// A body cut short while reads land in the consumer's memory fails as truncated; what was
    /// collected is not a success.
    @Test func aTruncatedBodyReadInPlaceFails() async throws {
        let server = try FaultServer(steps: [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n"), .pause(.milliseconds(50)),
            .send([UInt8](repeating: 0x62, count: 600_000)), .close,
        ])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(inPlaceCapacity: 1_000_000)
        guard case .invalidResponse? = outcome.failure else {
            Issue.record("expected invalidResponse, got \(String(describing: outcome.failure))")
            return
        }
        #expect(outcome.body.count == 600_000 && outcome.inPlaceParts > 0)
        await harness.shutdown()
    }

    @Test func deadlineFailsTheRequestWithTimedOut() async throws {
        let server = try FaultServer(steps: [.readRequest, .waitForClientClose(limit: .seconds(10))])
        defer { server.stop() }
        let harness = try await DriverHarness.connect(port: server.port)
        let outcome = await harness.run(deadline: .now() + .milliseconds(100))
        guard case .timedOut? = outcome.failure else {
            Issue.record("expected timedOut, got \(String(describing: outcome.failure))")
            return
        }
        #expect(try await harness.waitFor { $0.closed })
        await harness.shutdown()
    }
}
