// Session's source binding against nginx: the session's local address and port range, a request's
// own binding on its own connection, and the failures a bad binding makes, each named.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct SessionSourceBindingTests {
    @Test func theSessionsAddressAndPortAreTheConnectionsLocalEnd() async throws {
        let nginx = try TestEnvironment.nginx()
        let port = try LoopbackPort.free()
        let session = makeSession { $0.sourceBinding = try! SourceBinding(address: "127.0.0.2", ports: port...port) }
        let response = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response
        #expect(response.value?.count == 1_024)
        #expect(response.metrics?.localAddress == "127.0.0.2:\(port)")
        await session.shutdown()
    }

    @Test func aRequestsOwnBindingGetsItsOwnConnection() async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession { $0.sourceBinding = try! SourceBinding(address: "127.0.0.2") }
        let url = try #require(URL(string: "\(nginx.httpBase)/bytes/1k"))
        var own = HTTPRequest(method: .get, url: url, headers: [:], body: nil)
        own.sourceBinding = try SourceBinding(address: "127.0.0.3")
        let first = try #require(await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response.metrics)
        let mine = try #require(await session.request(own).serializingData().response.metrics)
        let again = try #require(await session.request("\(nginx.httpBase)/bytes/1k").serializingData().response.metrics)
        #expect(first.localAddress?.hasPrefix("127.0.0.2:") == true)
        #expect(mine.localAddress?.hasPrefix("127.0.0.3:") == true && !mine.isReused)
        #expect(again.isReused && again.localAddress == first.localAddress)
        await session.shutdown()
    }

    /// Three sessions on one two-port range: the first keeps port N busy (its pooled connection),
    /// the second moves to N + 1, the third finds both taken.
    @Test func aTakenPortMovesToTheNextOfTheRangeAndAFullRangeFails() async throws {
        let nginx = try TestEnvironment.nginx()
        let ports = try LoopbackPort.freeRange(count: 2)
        let first = ports.lowerBound
        let range = try SourceBinding(address: "127.0.0.1", ports: ports)
        // Not waiting for connectivity: a port of the range could free up, so the pool would
        // otherwise try again until the request's deadline.
        let sessions = (0..<3).map { _ in
            makeSession {
                $0.sourceBinding = range
                $0.waitsForConnectivity = false
            }
        }
        let holder = await sessions[0].request("\(nginx.httpBase)/bytes/1k").serializingData().response.metrics
        #expect(holder?.localAddress == "127.0.0.1:\(first)")
        let next = await sessions[1].request("\(nginx.httpBase)/bytes/1k").serializingData().response.metrics
        #expect(next?.localAddress == "127.0.0.1:\(first + 1)")
        let result = await sessions[2].request("\(nginx.httpBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
            Issue.record("expected connectionFailed, got \(result)")
            return
        }
        #expect(failure.kind == .addressUnavailable, "\(failure)")
        for session in sessions { await session.shutdown() }
    }

    /// An address of another family can never work, so it fails at once even while waiting for
    /// connectivity; one that is not (yet) this host's could appear, so only a session that does
    /// not wait fails at once.
    @Test(arguments: [
        ("192.0.2.1", ConnectionFailure.Kind.addressUnavailable, false),  // not an address of this host
        ("::1", .invalidAddress, true),  // IPv6 cannot reach nginx's 127.0.0.1
    ])
    func aBindingThatCannotWorkFailsTheConnectNamingWhy(
        address: String, kind: ConnectionFailure.Kind, waits: Bool
    ) async throws {
        let nginx = try TestEnvironment.nginx()
        let session = makeSession {
            $0.sourceBinding = try! SourceBinding(address: address)
            $0.waitsForConnectivity = waits
        }
        let result = await session.request("\(nginx.httpBase)/bytes/1k").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
            Issue.record("\(address): expected connectionFailed, got \(result)")
            return
        }
        #expect(failure.kind == kind, "\(failure)")
        await session.shutdown()
    }
}
