// Alamofire's DataStreamSerializer: each socket read serialized as it arrives (decodable,
// string, passthrough), a refused chunk as a failure event, or the request's end when asked.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

private struct Tick: Codable, Equatable, Sendable {
    let n: Int
}

struct DataStreamSerializerTests {
    /// Three JSON values, each sent alone after a pause (so each is one socket read), the second
    /// not JSON.
    static func server() throws -> FaultServer {
        let body = Array("{\"n\":1}nope{\"n\":3}".utf8)
        return try FaultServer(
            steps: piecewise(
                head: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n", body: body, cuts: [7, 11],
                pause: .milliseconds(80)))
    }

    @Test func eachChunkIsDecodedAndARefusedOneIsAFailureEvent() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Tick, WickError>()
        session.streamRequest("http://127.0.0.1:\(server.port)/")
            .responseStream(using: .decodable(of: Tick.self), stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().map(\.n) == [1, 3])
        guard events.count == 4, case .stream(.failure(.responseSerializationFailed(.decodingFailed))) = events[1]
        else {
            Issue.record("expected the second chunk to fail decoding, got \(events)")
            return
        }
        #expect(try #require(events.onlyCompletionLast()).error == nil)
        await session.shutdown()
    }

    @Test func aRefusedChunkEndsTheRequestWhenAsked() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let session = Session()
        let recorder = StreamRecorder<Tick, WickError>()
        let request = session.streamRequest("http://127.0.0.1:\(server.port)/", automaticallyCancelOnStreamError: true)
            .responseStream(using: DecodableStreamSerializer<Tick>(), stream: recorder.handler)
        let events = await recorder.completed()
        #expect(events.values().map(\.n) == [1])
        guard case .responseSerializationFailed(.decodingFailed)? = request.error else {
            Issue.record(
                "expected the request to end with the decoding failure, got \(String(describing: request.error))")
            return
        }
        await session.shutdown()
    }

    @Test func stringAndPassthroughSerializersAndCustomErrors() throws {
        #expect(StringStreamSerializer().serialize(Data("héllo".utf8)) == "héllo")
        #expect(PassthroughStreamSerializer().serialize(Data([1, 2])) == Data([1, 2]))
        struct Refusing: DataStreamSerializer {
            struct Refused: Error {}
            func serialize(_ data: Data) throws -> Int { throw Refused() }
        }
        var parser = SerializingStreamParser(serializer: Refusing())
        let parsed = parser.parsed(Data("x".utf8))
        guard case .failure(.responseSerializationFailed(.customSerializationFailed(let error)))? = parsed.first,
            error is Refusing.Refused
        else {
            Issue.record("expected a custom serialization failure, got \(parsed)")
            return
        }
    }
}
