// Session over HTTP/2 against nginx: ALPN, prior knowledge, multiplexing, backpressure, cancellation.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionHTTP2NginxTests {
    /// A session that trusts the test PKI and speaks HTTP/2 as `preference` says.
    static func session(
        _ nginx: TestEnvironment.Nginx, _ preference: HTTPVersionPreference = .preferHTTP2,
        configure: (inout Session.Configuration) -> Void = { _ in }
    ) throws -> Session {
        let roots = try SessionNginxTests.testRoots(nginx)
        return makeSession {
            $0.trustRoots = roots
            $0.httpVersion = preference
            configure(&$0)
        }
    }

    static func tlsBase(_ nginx: TestEnvironment.Nginx) -> String { "https://localhost:\(nginx.http2Port)" }
    static func h2cBase(_ nginx: TestEnvironment.Nginx) -> String { "http://127.0.0.1:\(nginx.h2cPort)" }

    @Test func aGetOverTLSNegotiatesHTTP2AndReusesTheConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        for index in 0..<3 {
            let response = await session.request("\(Self.tlsBase(nginx))/bytes/64k").validate().awaitResponseData()
            #expect(response.value == Data(TestPayload.bytes(count: 65_536)))
            #expect(response.response?.version == .http2)
            #expect(response.metrics?.httpVersion == .http2)
            #expect(response.metrics?.isReused == (index > 0))
        }
        #expect(await session.poolStatistics().total.created == 1)
        await session.shutdown()
    }

    @Test func priorKnowledgeSpeaksHTTP2OverAUnixSocket() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx) { $0.http2PriorKnowledge = true }
        for _ in 0..<2 {
            let response = await session.request("http://localhost/bytes/1k", unixSocketPath: nginx.h2cUnixSocket)
                .validate().awaitResponseData()
            #expect(response.value == Data(TestPayload.bytes(count: 1_024)), "\(String(describing: response.error))")
            #expect(response.metrics?.httpVersion == .http2)
        }
        #expect(await session.poolStatistics().total.created == 1)
        await session.shutdown()
    }

    @Test func http1OnlyKeepsHTTP1OnTheSameServer() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx, .http1Only)
        let response = await session.request("\(Self.tlsBase(nginx))/bytes/1k").awaitResponseData()
        #expect(response.value?.count == 1_024)
        #expect(response.response?.version == .http1_1)
        await session.shutdown()
    }

    @Test func http2OnlyFailsAServerThatDoesNotSelectH2() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx, .http2Only)
        // The ordinary https listener offers no h2.
        let result = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
            Issue.record("expected a connection failure, got \(result)")
            return
        }
        // nginx refuses the handshake itself (alert no_application_protocol): it supports no
        // protocol offered. A server that answers with http/1.1 fails with
        // `TLSError.applicationProtocolNotSelected` instead, the same kind.
        #expect(failure.kind == .tlsHandshakeFailed)
        #expect("\(failure)".contains("application protocol"))
        await session.shutdown()
    }

    @Test func anUploadedBodyArrivesWholeAndAPostIsAnswered() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        // Larger than the stream's initial send window: the body waits for WINDOW_UPDATEs.
        let body = Data(TestPayload.bytes(count: 300_000))
        let path = "/upload/h2-\(UUID().uuidString)"
        // 201 Created with an empty body (which the data serializer refuses for a 201: not checked here).
        let put = await session.request("\(Self.tlsBase(nginx))\(path)", method: .put, body: body).awaitResponseData()
        #expect(put.response?.statusCode == 201 && put.response?.version == .http2)
        #expect(put.metrics.map { $0.requestBytesSent > body.count } == true)
        let back = await session.request("\(Self.tlsBase(nginx))\(path)").validate().awaitResponseData()
        #expect(back.value == body)
        let post = await session.request("\(Self.tlsBase(nginx))/post/1k", method: .post, body: body)
            .validate().awaitResponseData()
        #expect(post.value?.count == 1_024)
        await session.shutdown()
    }

    @Test func aLargeDownloadAndAGzippedBodyArriveWhole() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        let large = await session.request("\(Self.tlsBase(nginx))/bytes/10m").awaitResponseData()
        #expect(large.value == Data(TestPayload.bytes(count: 10 << 20)))
        let text = await session.request("\(Self.tlsBase(nginx))/text/1m.txt").awaitResponseData()
        #expect(text.response?.headers.value(for: "Content-Encoding") == "gzip")
        #expect(text.value == Data(TestPayload.text(count: 1 << 20)))
        await session.shutdown()
    }

    /// A small policy fills its reader within the read batch that brings its first chunks: the
    /// batch's end must still wake that reader (it stalled until nginx gave up after 60 s,
    /// having sent one stream window, when a full stream was not told the batch ended).
    @Test(arguments: [16 * 1024, 256 * 1024])
    func aSlowStreamReaderHoldsTheServerBackWithinBounds(highWaterMark: Int) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        let policy = DataStreamRequest.BufferingPolicy.bytes(highWaterMark)
        let sequence = session.streamRequest("\(Self.tlsBase(nginx))/bytes/10m").streamingData(bufferingPolicy: policy)
        var body = Data()
        for try await chunk in sequence {
            body.append(chunk)
            if body.count < 2 << 20 { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(body == Data(TestPayload.bytes(count: 10 << 20)))
        // Past the mark only what one read of the connection brought in for the stream.
        #expect(sequence.peakBufferedBytes <= policy.highWaterMark + 256 * 1024)
        #expect(sequence.peakBufferedBytes > policy.highWaterMark)
        await session.shutdown()
    }

    @Test func concurrentRequestsShareOneConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        let base = Self.tlsBase(nginx)
        let results = await withTaskGroup(of: Data?.self) { group in
            for _ in 0..<32 {
                group.addTask { await session.request("\(base)/bytes/64k").awaitResponseData().value }
            }
            return await group.reduce(into: [Data?]()) { $0.append($1) }
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { $0 == Data(TestPayload.bytes(count: 65_536)) })
        let statistics = await session.poolStatistics()
        #expect(statistics.total.created == 1)
        #expect(statistics.total.leases == 32)
        await session.shutdown()
    }

    @Test func priorKnowledgeOpensASecondConnectionOnlyPastTheStreamLimit() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx, .http1Only) { $0.http2PriorKnowledge = true }
        let base = Self.h2cBase(nginx)
        // nginx allows 8 streams per connection here; 16 slow requests overlap.
        let results = await withTaskGroup(of: (Int?, HTTPVersion?).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let response = await session.request("\(base)/slow/64k").awaitResponseData()
                    return (response.value?.count, response.response?.version)
                }
            }
            return await group.reduce(into: [(Int?, HTTPVersion?)]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.0 == 65_536 && $0.1 == .http2 })
        #expect(await session.poolStatistics().total.created == 2)
        await session.shutdown()
    }

    @Test func cancellingOneStreamLeavesTheOthersRunning() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        let base = Self.tlsBase(nginx)
        let warm = await session.request("\(base)/bytes/1k").awaitResponseData()
        #expect(warm.response?.version == .http2)
        let slow = session.request("\(base)/slow/1m")
        let other = session.request("\(base)/slow/64k")
        try await Task.sleep(for: .milliseconds(100))
        slow.cancel()
        let cancelled = await slow.serializingData().result
        guard case .failure(.explicitlyCancelled) = cancelled else {
            Issue.record("expected a cancellation, got \(cancelled)")
            return
        }
        let finished = await other.awaitResponseData()
        #expect(finished.value?.count == 65_536)
        let after = await session.request("\(base)/bytes/1k").awaitResponseData()
        #expect(after.value?.count == 1_024 && after.metrics?.isReused == true)
        #expect(await session.poolStatistics().total.created == 1)
        await session.shutdown()
    }

    @Test func redirectsAndValidationBehaveAsOverHTTP1() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        let redirected = await session.request("\(Self.tlsBase(nginx))/redirect/bytes-1k").validate()
            .awaitResponseData()
        #expect(redirected.value?.count == 1_024)
        #expect(redirected.response?.url?.path == "/bytes/1k")
        let missing = await session.request("\(Self.tlsBase(nginx))/bytes/none").validate().serializingData().result
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(code: 404))) = missing else {
            Issue.record("expected a 404 validation failure, got \(missing)")
            return
        }
        await session.shutdown()
    }

    @Test func theCurlCommandSaysHTTP2() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = try Self.session(nginx)
        let request = session.request("\(Self.tlsBase(nginx))/bytes/1k")
        _ = await request.awaitResponseData()
        #expect(request.cURLCommand().contains("--http2"))
        let h2c = try Self.session(nginx, .http1Only) { $0.http2PriorKnowledge = true }
        let plain = h2c.request("\(Self.h2cBase(nginx))/bytes/1k")
        _ = await plain.awaitResponseData()
        #expect(plain.cURLCommand().contains("--http2-prior-knowledge"))
        await h2c.shutdown()
        await session.shutdown()
    }
}
