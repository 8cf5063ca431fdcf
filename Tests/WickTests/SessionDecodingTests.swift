// Session's automatic gzip/deflate decoding: nginx and httpbin bodies, and corrupt, truncated and bomb bodies.
import Foundation
import Testing
import Wick
import WickTestSupport

struct SessionDecodingTests {
    /// A 200 response with `Content-Encoding: coding` and `body`, framed by Content-Length.
    static func coded(_ body: [UInt8], coding: String = "gzip") -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// A server that answers one request with `response`.
    static func server(_ response: [UInt8]) throws -> FaultServer {
        try FaultServer(steps: [.readRequestHead, .send(response)])
    }

    @Test(arguments: ["gzip", "deflate"])
    func aCodedBodyArrivesDecodedWithItsHeadersKept(coding: String) async throws {
        let text = TestPayload.text(count: 100_000)
        let encoded = coding == "gzip" ? TestCompression.gzip(text) : TestCompression.zlib(text)
        let server = try Self.server(Self.coded(encoded, coding: coding))
        defer { server.stop() }
        let session = Session()
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(response.value == Data(text))
        #expect(response.response?.headers.value(for: "Content-Encoding") == coding)
        #expect(response.response?.headers.value(for: "Content-Length") == "\(encoded.count)")
        let sent = String(decoding: server.received(onConnection: 0), as: UTF8.self)
        #expect(sent.contains("\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"))
        await session.shutdown()
    }

    /// A body that cannot be decoded completely is a `contentDecodingFailed` naming why, never
    /// a success with part of a body.
    @Test(
        arguments: [
            (
                "corrupt gzip",
                [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3] + Array(repeating: 0xff, count: 64), "invalidData",
                ContentDecodingFailure.Kind.corrupt
            ),
            (
                "gzip cut 10 bytes short, with a Content-Length that matches the cut",
                Array(TestCompression.gzip(TestPayload.text(count: 50_000)).dropLast(10)), "truncated",
                ContentDecodingFailure.Kind.truncated
            ),
            (
                // About 1000:1, past the decoder's 100:1 once more than 1 MiB is decoded: it stops
                // there, long before the 16 MiB would be held.
                "a bomb past the expansion ratio",
                TestCompression.gzip([UInt8](repeating: 0, count: 16 << 20)), "expansionRatioLimitExceeded",
                ContentDecodingFailure.Kind.expansionRatioExceeded
            ),
        ] as [(String, [UInt8], String, ContentDecodingFailure.Kind)])
    func aBodyThatCannotBeDecodedFails(
        _ name: String, body: [UInt8], reasonMentions expected: String, kind: ContentDecodingFailure.Kind
    ) async throws {
        let server = try Self.server(Self.coded(body))
        defer { server.stop() }
        let session = Session()
        let result = await session.request("http://127.0.0.1:\(server.port)/").serializingData().result
        guard case .failure(.sessionTaskFailed(.contentDecodingFailed(let failure))) = result else {
            Issue.record("\(name): expected contentDecodingFailed, got \(result)")
            return
        }
        #expect(failure.kind == kind, "\(name): \(failure)")
        #expect(failure.reason.contains(expected), "\(name): \(failure.reason)")
        #expect("\(try #require(result.failureValue))".contains(failure.reason))
        await session.shutdown()
    }

    @Test(arguments: [256 * 1024, 256 * 1024 + 1])
    func theBodyLimitAppliesToTheDecodedSize(decodedSize: Int) async throws {
        // Zeros compress about 1000:1: a body of about 256 bytes on the wire, under the ratio floor.
        let encoded = TestCompression.gzip([UInt8](repeating: 0, count: decodedSize))
        #expect(encoded.count < 1_024)
        let server = try Self.server(Self.coded(encoded))
        defer { server.stop() }
        let session = makeSession { $0.maximumResponseBodyBytes = 256 * 1024 }
        let result = await session.request("http://127.0.0.1:\(server.port)/").serializingData().result
        if decodedSize <= 256 * 1024 {
            #expect(try result.get() == Data(count: decodedSize))
        } else {
            guard case .failure(.bodyTooLarge(limit: 256 * 1024)) = result else {
                Issue.record("expected bodyTooLarge, got \(result)")
                return
            }
        }
        await session.shutdown()
    }

    @Test func aRequestsOwnAcceptEncodingIsSentAsIsAndAnUnknownCodingPassesThrough() async throws {
        let lzwLike: [UInt8] = [0x1f, 0x9d, 0x90, 0x68, 0x69, 0x03]
        let server = try Self.server(Self.coded(lzwLike, coding: "compress"))
        defer { server.stop() }
        let session = Session()
        let response = await session.request("http://127.0.0.1:\(server.port)/", headers: ["Accept-Encoding": "compress"])
            .serializingData().response
        #expect(response.value == Data(lzwLike))
        #expect(response.response?.headers.value(for: "Content-Encoding") == "compress")
        let sent = String(decoding: server.received(onConnection: 0), as: UTF8.self)
        #expect(sent.contains("\r\nAccept-Encoding: compress\r\n") && !sent.contains("gzip"))
        await session.shutdown()
    }

    @Test func withDecodingOffNothingIsAskedForOrDecoded() async throws {
        let encoded = TestCompression.gzip(Array("hello".utf8))
        let server = try Self.server(Self.coded(encoded))
        defer { server.stop() }
        let session = makeSession { $0.automaticallyDecodesResponseBodies = false }
        let response = await session.request("http://127.0.0.1:\(server.port)/").serializingData().response
        #expect(response.value == Data(encoded))
        let sent = String(decoding: server.received(onConnection: 0), as: UTF8.self)
        #expect(!sent.lowercased().contains("accept-encoding"))
        await session.shutdown()
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"), arguments: ["text", "chunked"])
    func nginxGzipsTheMegabyteTextAndItArrivesDecoded(directory: String) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let response = await session.request("\(nginx.httpBase)/\(directory)/1m.txt").serializingData().response
        #expect(response.response?.headers.value(for: "Content-Encoding") == "gzip")
        #expect(response.value == Data(TestPayload.text(count: 1 << 20)))
        await session.shutdown()
    }

    @Test(
        .enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"),
        arguments: ["gzip", "deflate"])
    func httpbinsCodedEndpointsArriveDecoded(coding: String) async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let data = try await session.request("\(base)/\(coding)").serializingData().value
        let json = try httpbinJSON(data)
        #expect(json[coding == "gzip" ? "gzipped" : "deflated"] as? Bool == true)
        await session.shutdown()
    }
}
