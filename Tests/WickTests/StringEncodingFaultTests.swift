// Charsets httpbin cannot send: an ISO-8859-1 body, and bytes invalid for their named charset.
import Foundation
import Testing
import Wick
import WickTestSupport

struct StringEncodingFaultTests {
    /// A server answering once with `Content-Type: contentType` and `body`.
    private func serve(contentType: String, body: [UInt8]) throws -> FaultServer {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
        return try FaultServer(steps: [.readRequestHead, .send(Array(head.utf8) + body)])
    }

    @Test func aLatin1BodyIsDecodedFromItsCharset() async throws {
        let server = try serve(contentType: "text/plain; charset=ISO-8859-1", body: [0x63, 0x61, 0x66, 0xE9])
        defer { server.stop() }
        let session = Session()
        let text = try await session.request("http://127.0.0.1:\(server.port)/").serializingString().value
        #expect(text == "café")
        await session.shutdown()
    }

    @Test func bytesInvalidForTheirCharsetFailTheString() async throws {
        let server = try serve(contentType: "text/plain; charset=utf-8", body: [0x63, 0x61, 0x66, 0xE9])
        defer { server.stop() }
        let session = Session()
        let result = await session.request("http://127.0.0.1:\(server.port)/").serializingString().result
        guard case .failure(.responseSerializationFailed(.stringSerializationFailed(.utf8))) = result else {
            Issue.record("expected stringSerializationFailed(utf8), got \(result)")
            return
        }
        await session.shutdown()
    }
}
