// Session against nginx: reuse across requests, HTTPS with the test root, key pins, body limits.
import Dispatch
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionNginxTests {
    /// The test PKI's root as trust roots.
    static func testRoots(_ nginx: TestEnvironment.Nginx) throws -> TrustRoots {
        .certificates([try Certificate(pemEncoded: String(contentsOf: nginx.pki.root.certificate, encoding: .utf8))])
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        for index in 0..<5 {
            let response = await session.request("\(nginx.httpBase)/bytes/1k").awaitResponseData()
            #expect(response.value?.count == 1_024)
            #expect(response.metrics?.isReused == (index > 0))
            #expect((response.metrics?.connect == nil) == (index > 0))
            // 127.0.0.1 is an address: nothing to resolve.
            #expect(response.metrics?.resolve == nil)
        }
        await session.shutdown()
    }

    @Test func handlersRunOnTheSessionQueueOrTheOneGiven() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = Session()
        let onSessionQueue = await withCheckedContinuation { continuation in
            session.request("\(nginx.httpBase)/bytes/1k").responseData { [queue = session.responseQueue] _ in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: true)
            }
        }
        #expect(onSessionQueue)
        let mine = DispatchQueue(label: "test.handlers")
        let onMine = await withCheckedContinuation { continuation in
            session.request("\(nginx.httpBase)/bytes/1k").responseData(queue: mine) { _ in
                dispatchPrecondition(condition: .onQueue(mine))
                continuation.resume(returning: true)
            }
        }
        #expect(onMine)
        await session.shutdown()
    }

    @Test func httpsWithTheTestRootInTheConfiguration() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try Self.testRoots(nginx)
        let session = makeSession { $0.trustRoots = roots }
        let first = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(first.value?.count == 1_024)
        #expect(first.metrics?.tlsHandshake != nil)
        // localhost is a name: resolved, then connected, then the handshake, in that order.
        let metrics = try #require(first.metrics)
        let resolve = try #require(metrics.resolve), connect = try #require(metrics.connect)
        #expect(resolve > .zero && connect > .zero)
        #expect(try #require(metrics.poolWait) >= resolve + connect + (metrics.tlsHandshake ?? .zero))
        let second = await session.request("\(nginx.httpsBase)/bytes/1k").serializingData().response
        #expect(second.metrics?.isReused == true && second.metrics?.tlsHandshake == nil)
        #expect(second.metrics?.resolve == nil && second.metrics?.connect == nil)
        await session.shutdown()
    }

    @Test func httpsWithoutTheTestRootFailsTrustEvaluation() async throws {
        let nginx = try TestEnvironment.nginx()
        let emptyRoots = makeSession { $0.trustRoots = .certificates([]) }
        let result = await emptyRoots.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.serverTrustEvaluationFailed) = result else {
            Issue.record("expected a trust failure, got \(result)")
            return
        }
        await emptyRoots.shutdown()
    }

    @Test func aPinnedLeafKeyIsAcceptedAndAWrongPinRefused() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try Self.testRoots(nginx)
        let leaf = try Certificate(pemEncoded: String(contentsOf: nginx.pki.server.certificate, encoding: .utf8))
        let pinned = makeSession(
            serverTrustManager: ServerTrustManager(evaluators: ["localhost": PublicKeysTrustEvaluator(keys: [leaf.publicKey])])
        ) { $0.trustRoots = roots }
        let data = try await pinned.request("\(nginx.httpsBase)/bytes/1k").serializingData().value
        #expect(data.count == 1_024)
        await pinned.shutdown()

        let wrongKey = PublicKey(spkiSHA256: [UInt8](repeating: 0xAB, count: 32))
        let wrong = makeSession(
            serverTrustManager: ServerTrustManager(evaluators: ["localhost": PublicKeysTrustEvaluator(keys: [wrongKey])])
        ) { $0.trustRoots = roots }
        let result = await wrong.request("\(nginx.httpsBase)/bytes/1k").serializingData().result
        guard case .failure(.serverTrustEvaluationFailed(let reason)) = result else {
            Issue.record("expected a pin failure, got \(result)")
            return
        }
        guard case .publicKeyPinningFailed = reason.reason else {
            Issue.record("expected publicKeyPinningFailed, got \(reason)")
            return
        }
        await wrong.shutdown()
    }

    @Test(arguments: [(1_024, true), (1_023, false)])
    func theBodyLimitAllowsExactlyItsSize(limit: Int, succeeds: Bool) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.maximumResponseBodyBytes = limit }
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        if succeeds {
            #expect((try? result.get())?.count == 1_024)
        } else if case .failure(.bodyTooLarge(let reported)) = result {
            #expect(reported == limit)
        } else {
            Issue.record("expected bodyTooLarge, got \(result)")
        }
        await session.shutdown()
    }

    @Test func concurrentRequestsOnTwoLoopsAllSucceed() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.eventLoopCount = 2 }
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask { (try? await session.request("\(nginx.httpBase)/bytes/1k").serializingData().value)?.count == 1_024 }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(succeeded == 50)
        // An origin always goes to the same loop's pool, so its connections are still shared.
        let after = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(after.metrics?.isReused == true)
        await session.shutdown()
    }

    /// With busy polling the same requests succeed, on plain HTTP and HTTPS: sequential ones
    /// (taken inline by their polling caller, or by the polling loop), concurrent ones, a
    /// 1 MiB stream, and a callback handler's.
    @Test func aBusyPollingSessionServesEveryKindOfRequest() async throws {
        let nginx = try TestEnvironment.nginx()
        let roots = try Self.testRoots(nginx)
        let session = makeSession {
            $0.busyPollDuration = .microseconds(200)
            $0.trustRoots = roots
        }
        for base in [nginx.httpBase, nginx.httpsBase] {
            for _ in 0..<20 {
                #expect(try await session.request("\(base)/bytes/1k").serializingData().value.count == 1_024)
            }
            let concurrent = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { (try? await session.request("\(base)/bytes/64k").serializingData().value)?.count ?? -1 }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(concurrent == Array(repeating: 65_536, count: 16))
            var streamed = 0
            for try await chunk in session.streamRequest("\(base)/bytes/1m").streamingData() { streamed += chunk.count }
            #expect(streamed == 1 << 20)
            let handled = await session.request("\(base)/bytes/1k").awaitResponseData()
            #expect(handled.value?.count == 1_024)
        }
        await session.shutdown()
    }
}
