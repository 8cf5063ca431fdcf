// The fault server answers each request as a responder chooses, from the request read whole.
import Synchronization
import Testing
import WickTestSupport

@Suite struct FaultResponderTests {
    @Test func answersEachKeepAliveRequestByWhatItAsksFor() async throws {
        let seen = Mutex<[String]>([])
        let responder = FaultResponder { request in
            seen.withLock {
                $0.append("\(request.method) \(request.target) \(request.field("x-id") ?? "-") \(request.body.count)")
            }
            return request.target == "/close" ? [.respond(body: "bye", close: true), .close] : [.respond(body: request.target)]
        }
        let server = try FaultServer(recordsReceivedBytes: false) { _ in [.repeating([.answer(responder)], times: 10)] }
        let client = try LoopbackClient(port: server.port)
        defer { client.close() }
        client.send("GET /first HTTP/1.1\r\nX-Id: 1\r\n\r\n")
        client.send("POST /close HTTP/1.1\r\nX-ID: 2\r\nContent-Length: 4\r\n\r\nbody")
        let (bytes, end, _) = client.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\r\n\r\n/first") && text.hasSuffix("\r\n\r\nbye"))
        #expect(end == .endOfFile)
        #expect(await server.waitForEnd(ofConnection: 0) == .completed)
        #expect(seen.withLock { $0 } == ["GET /first 1 0", "POST /close 2 4"])
        #expect(server.received(onConnection: 0).isEmpty, "nothing is kept when recording is off")
    }
}
