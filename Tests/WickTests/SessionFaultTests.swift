// Session's failures: invalid URLs, refused and dropped connections, cancellation, shutdown.
import Foundation
import Testing
import Wick
import WickTestSupport

struct SessionFaultTests {
    @Test(arguments: ["", "ftp://127.0.0.1/file", "http:///no-host", "mailto:someone@example.com"])
    func anInvalidURLFailsWithoutSending(url: String) async throws {
        let session = Session()
        let response = await session.request(url).serializingData().response
        guard case .failure(.invalidURL) = response.result else {
            Issue.record("expected invalidURL for \(url), got \(response.result)")
            return
        }
        #expect(response.request == nil && response.response == nil)
        await session.shutdown()
    }

    @Test func urlAndURLComponentsAreAccepted() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))])
        defer { server.stop() }
        let session = Session()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/a%20b?x=1"))
        #expect(try await session.request(url).serializingData().value == Data("ok".utf8))
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = server.port
        components.path = "/c"
        #expect(try await session.request(components).serializingData().value == Data("ok".utf8))
        let firstRequest = String(decoding: server.received(onConnection: 0), as: UTF8.self)
        #expect(firstRequest.hasPrefix("GET /a%20b?x=1 HTTP/1.1\r\n"))
        await session.shutdown()
    }

    @Test func aConnectionClosedAfterTheRequestMayHaveBeenProcessed() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .close])
        defer { server.stop() }
        let session = Session()
        let result = await session.request("http://127.0.0.1:\(server.port)/", method: .post, body: Data("x".utf8))
            .serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionLost(let loss))) = result, loss.requestMayHaveBeenProcessed
        else {
            Issue.record("expected connectionLost that may have been processed, got \(result)")
            return
        }
        #expect("\(try #require(result.failureValue))".contains("may have been processed"))
        await session.shutdown()
    }

    @Test func aRefusedConnectTimesOutWaitingForAConnectionWithTheCause() async throws {
        let refusing = try RefusingPort()
        let session = makeSession { $0.requestTimeout = .seconds(2) }
        let result = await session.request("http://127.0.0.1:\(refusing.port)/").serializingData().result
        guard case .failure(.sessionTaskFailed(.timedOut(.waitingForConnection, let last?))) = result else {
            Issue.record("expected a pool-wait timeout with the refusal, got \(result)")
            return
        }
        #expect("\(last)".lowercased().contains("refused"))
        #expect(last.kind == .refused)
        await session.shutdown()
    }

    @Test func cancelStopsARunningRequest() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(30))])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/slow")
        let task = request.serializingData()
        // Polled, not `waitForConnections`: a blocking wait would hold a cooperative thread
        // the request itself may need.
        #expect(try await waitUntil { server.acceptedConnections == 1 && !server.received(onConnection: 0).isEmpty })
        task.cancel()
        let result = await task.result
        guard case .failure(.explicitlyCancelled) = result else {
            Issue.record("expected explicitlyCancelled, got \(result)")
            return
        }
        #expect(request.isCancelled && request.state == .cancelled)
        await session.shutdown()
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequestWhenAskedTo() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .pause(.seconds(30))])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/slow")
        let awaiting = Task { await request.serializingData(automaticallyCancelling: true).result }
        #expect(try await waitUntil { server.acceptedConnections == 1 && !server.received(onConnection: 0).isEmpty })
        awaiting.cancel()
        let result = await awaiting.value
        guard case .failure(.explicitlyCancelled) = result else {
            Issue.record("expected explicitlyCancelled, got \(result)")
            return
        }
        #expect(request.isCancelled)
        await session.shutdown()
    }

    /// Alamofire's default: the awaiting task's cancellation is ignored, the request runs on and
    /// the task gets its real outcome.
    @Test func byDefaultCancellingTheAwaitingTaskLeavesTheRequestRunning() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .pause(.milliseconds(300)), .respond(body: "late")])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/slow")
        let awaiting = Task { await request.serializingString().result }
        #expect(try await waitUntil { server.acceptedConnections == 1 && !server.received(onConnection: 0).isEmpty })
        awaiting.cancel()
        let result = await awaiting.value
        #expect(try result.get() == "late")
        #expect(!request.isCancelled)
        await session.shutdown()
    }

    @Test func aRequestCancelledBeforeItStartsIsNeverSent() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .close])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/")
        request.cancel()
        #expect(request.state == .cancelled)
        let response = await request.awaitResponseData()
        guard case .failure(.explicitlyCancelled) = response.result else {
            Issue.record("expected explicitlyCancelled, got \(response.result)")
            return
        }
        #expect(server.acceptedConnections == 0)
        await session.shutdown()
    }

    @Test func everyHandlerSeesTheSameOutcome() async throws {
        let server = try FaultServer(steps: [.readRequestHead, .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))])
        defer { server.stop() }
        let session = Session()
        let request = session.request("http://127.0.0.1:\(server.port)/")
        let first = await request.awaitResponseData()
        let second = await request.awaitResponseData()
        let third = try await request.serializingData().value
        #expect(first.value == Data("ok".utf8) && second.value == first.value && third == first.value)
        #expect(server.acceptedConnections == 1)
        await session.shutdown()
    }

    @Test func aRequestAfterShutdownFailsWithSessionInvalidated() async throws {
        let session = Session()
        await session.shutdown()
        let result = await session.request("http://127.0.0.1:9/").serializingData().result
        guard case .failure(.sessionInvalidated) = result else {
            Issue.record("expected sessionInvalidated, got \(result)")
            return
        }
    }
}
