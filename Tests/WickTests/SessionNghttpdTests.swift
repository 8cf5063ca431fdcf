// Session over HTTP/2 against nghttpd (nghttp2's server): GET, POST, many streams on one
// connection, a large body under flow control, and trailers, over TLS (ALPN h2) and h2c.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNghttpd, "nghttpd is started by Scripts/test"))
struct SessionNghttpdTests {
    /// How a test reaches nghttpd: over TLS with ALPN h2, or in cleartext with prior knowledge.
    enum Listener: CaseIterable, CustomStringConvertible {
        case tls, h2c

        var description: String { self == .tls ? "TLS" : "h2c" }

        func base(_ nghttpd: TestEnvironment.Nghttpd) -> String {
            self == .tls ? nghttpd.tlsBase : nghttpd.h2cBase
        }
    }

    /// A session that trusts the test PKI and speaks HTTP/2 to `listener`.
    static func session(_ nghttpd: TestEnvironment.Nghttpd, _ listener: Listener) throws -> Session {
        let root = try Certificate(pemEncoded: String(contentsOf: nghttpd.pki.root.certificate, encoding: .utf8))
        return makeSession {
            $0.trustRoots = .certificates([root])
            if listener == .tls { $0.httpVersion = .http2Only } else { $0.http2PriorKnowledge = true }
        }
    }

    @Test(arguments: Listener.allCases)
    func aGetArrivesWholeWithItsTrailersAndReusesTheConnection(_ listener: Listener) async throws {
        let nghttpd = try TestEnvironment.nghttpd()
        let session = try Self.session(nghttpd, listener)
        for index in 0..<2 {
            let response = await session.request("\(listener.base(nghttpd))/bytes/1k").validate().awaitResponseData()
            #expect(response.value == Data(TestPayload.bytes(count: 1_024)), "\(String(describing: response.error))")
            #expect(response.response?.version == .http2)
            #expect(response.response?.headers.value(for: "Server")?.hasPrefix("nghttpd") == true)
            #expect(response.response?.trailers?.value(for: NghttpdServer.trailer.0) == NghttpdServer.trailer.1)
            #expect(response.metrics?.isReused == (index > 0))
        }
        #expect(await session.poolStatistics().total.created == 1)
        await session.shutdown()
    }

    @Test(arguments: Listener.allCases)
    func aPostedBodyLargerThanTheSendWindowIsEchoedWhole(_ listener: Listener) async throws {
        let nghttpd = try TestEnvironment.nghttpd()
        let session = try Self.session(nghttpd, listener)
        // Above nghttpd's 65,535-byte stream window: the body waits for its WINDOW_UPDATEs.
        let body = Data(TestPayload.bytes(count: 300_000, seed: 7))
        let response = await session.request("\(listener.base(nghttpd))/echo", method: .post, body: body)
            .validate().awaitResponseData()
        #expect(response.value == body, "\(String(describing: response.error))")
        #expect(response.response?.headers.value(for: "nghttpd-response") == "echo")
        #expect(response.metrics.map { $0.requestBytesSent > body.count } == true)
        await session.shutdown()
    }

    @Test(arguments: Listener.allCases)
    func manyConcurrentStreamsShareOneConnection(_ listener: Listener) async throws {
        let nghttpd = try TestEnvironment.nghttpd()
        let session = try Self.session(nghttpd, listener)
        let base = listener.base(nghttpd)
        let count = NghttpdServer.maxConcurrentStreams
        let results = await withTaskGroup(of: Data?.self) { group in
            for _ in 0..<count {
                group.addTask { await session.request("\(base)/bytes/64k").validate().awaitResponseData().value }
            }
            return await group.reduce(into: [Data?]()) { $0.append($1) }
        }
        #expect(results.count == count)
        #expect(results.allSatisfy { $0 == Data(TestPayload.bytes(count: 65_536)) })
        let statistics = await session.poolStatistics()
        #expect(statistics.total.created == 1)
        #expect(statistics.total.leases == count)
        await session.shutdown()
    }

    @Test(arguments: Listener.allCases)
    func largeBodiesOnOneConnectionArriveWholeThroughFlowControl(_ listener: Listener) async throws {
        let nghttpd = try TestEnvironment.nghttpd()
        let session = try Self.session(nghttpd, listener)
        let base = listener.base(nghttpd)
        // Four 8 MiB bodies at once: each far above its 65,535-byte stream window, all four
        // above the 1 MiB connection window, so both levels of WINDOW_UPDATE must keep up.
        let results = await withTaskGroup(of: (Data?, HTTPHeaders?).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let response = await session.request("\(base)/bytes/8m").validate().awaitResponseData()
                    return (response.value, response.response?.trailers)
                }
            }
            return await group.reduce(into: [(Data?, HTTPHeaders?)]()) { $0.append($1) }
        }
        let expected = Data(TestPayload.bytes(count: 8 << 20))
        #expect(results.count == 4 && results.allSatisfy { $0.0 == expected })
        #expect(results.allSatisfy { $0.1?.value(for: NghttpdServer.trailer.0) == NghttpdServer.trailer.1 })
        #expect(await session.poolStatistics().total.created == 1)
        await session.shutdown()
    }

    @Test func aMissingFileIsA404OverHTTP2() async throws {
        let nghttpd = try TestEnvironment.nghttpd()
        let session = try Self.session(nghttpd, .h2c)
        let result = await session.request("\(nghttpd.h2cBase)/bytes/none").validate().serializingData().result
        guard case .failure(.responseValidationFailed(.unacceptableStatusCode(code: 404))) = result else {
            Issue.record("expected a 404 validation failure, got \(result)")
            return
        }
        await session.shutdown()
    }
}
