// SOCKSHandshake played by a scripted proxy: every rule, every reply under every delivery.
import Testing
import WickTLS
import WickTestSupport

@testable import WickTransport

struct SOCKSHandshakeTests {
    private static let credentials = ProxyCredentials(username: "alice", password: "s3cret")
    private static let ipv4 = SOCKSHandshake.Target.ipv4([127, 0, 0, 1], port: 8080)
    private static let ipv6 = SOCKSHandshake.Target.ipv6(Array(repeating: 0, count: 15) + [1], port: 443)
    private static let name = SOCKSHandshake.Target.name("example.com", port: 443)

    /// The request a SOCKS5 connect to `target` writes.
    private static func connectRequest(_ target: SOCKSHandshake.Target) -> [UInt8] {
        switch target {
        case .ipv4(let bytes, let port): [5, 1, 0, 1] + bytes + [UInt8(port >> 8), UInt8(port & 0xFF)]
        case .ipv6(let bytes, let port): [5, 1, 0, 4] + bytes + [UInt8(port >> 8), UInt8(port & 0xFF)]
        case .name(let name, let port):
            [5, 1, 0, 3, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(port >> 8), UInt8(port & 0xFF)]
        }
    }

    /// Feeds `reply` in `delivery`'s pieces; every action but the last must be `.needMoreBytes`.
    private static func feed(_ machine: inout SOCKSHandshake, _ delivery: Delivery) -> SOCKSHandshake.Action {
        var last = SOCKSHandshake.Action.needMoreBytes
        let pieces = delivery.pieces.filter { !$0.isEmpty }
        for (index, piece) in pieces.enumerated() {
            last = machine.bytesReceived(piece)
            if index < pieces.count - 1 && last != .needMoreBytes {
                Issue.record("\(delivery): \(last) before the reply was whole")
                return last
            }
        }
        return last
    }

    /// A SOCKS5 machine for `target` past `start`, its method choice awaited.
    private static func socks5(_ target: SOCKSHandshake.Target, credentials: ProxyCredentials? = nil) -> SOCKSHandshake {
        var machine = SOCKSHandshake(version: .socks5, target: target, credentials: credentials)
        _ = machine.start()
        return machine
    }

    // MARK: - Method negotiation (rules 1 and 3)

    @Test func theGreetingOffersNoAuthenticationAloneWithoutCredentials() {
        var machine = SOCKSHandshake(version: .socks5, target: Self.ipv4, credentials: nil)
        #expect(machine.start() == .write([5, 1, 0x00]))
    }

    @Test func theGreetingOffersUserNameAndPasswordWithCredentials() {
        var machine = SOCKSHandshake(version: .socks5, target: Self.ipv4, credentials: Self.credentials)
        #expect(machine.start() == .write([5, 2, 0x00, 0x02]))
    }

    @Test(arguments: [ipv4, ipv6, name])
    func noAuthenticationGoesOnToTheConnectRequest(target: SOCKSHandshake.Target) {
        for delivery in Delivery.all(of: [5, 0]) {
            var machine = Self.socks5(target)
            #expect(Self.feed(&machine, delivery) == .write(Self.connectRequest(target)), "\(delivery)")
        }
    }

    @Test func noAcceptableMethodSaysWhetherCredentialsWereOffered() {
        var without = Self.socks5(Self.ipv4)
        #expect(without.bytesReceived([5, 0xFF]) == .fail(.noAcceptableMethod(credentialsOffered: false)))
        var with = Self.socks5(Self.ipv4, credentials: Self.credentials)
        #expect(with.bytesReceived([5, 0xFF]) == .fail(.noAcceptableMethod(credentialsOffered: true)))
    }

    @Test func aMethodThatWasNotOfferedIsAnInvalidReply() {
        var machine = Self.socks5(Self.ipv4)
        #expect(
            machine.bytesReceived([5, 0x02])
                == .fail(.invalidReply(step: .methodNegotiation, reason: "method 2, which was not offered")))
        var gssapi = Self.socks5(Self.ipv4, credentials: Self.credentials)
        #expect(
            gssapi.bytesReceived([5, 0x01])
                == .fail(.invalidReply(step: .methodNegotiation, reason: "method 1, which was not offered")))
    }

    @Test func aMethodReplyOfAnotherVersionIsInvalid() {
        var machine = Self.socks5(Self.ipv4)
        #expect(
            machine.bytesReceived([4, 0]) == .fail(.invalidReply(step: .methodNegotiation, reason: "version 4, not 5")))
    }

    @Test func bytesBeyondTheMethodReplyAreInvalid() {
        var machine = Self.socks5(Self.ipv4)
        #expect(
            machine.bytesReceived([5, 0, 5])
                == .fail(.invalidReply(step: .methodNegotiation, reason: "1 bytes after the reply")))
    }

    // MARK: - Authentication (rule 4)

    @Test func userNameAndPasswordAreSentAsRFC1929Says() {
        var machine = Self.socks5(Self.ipv4, credentials: Self.credentials)
        #expect(machine.bytesReceived([5, 2]) == .write([1, 5] + Array("alice".utf8) + [6] + Array("s3cret".utf8)))
    }

    @Test func anEmptyPasswordIsSentWithLengthZero() {
        var machine = Self.socks5(Self.ipv4, credentials: ProxyCredentials(username: "bob", password: ""))
        #expect(machine.bytesReceived([5, 2]) == .write([1, 3] + Array("bob".utf8) + [0]))
    }

    @Test func statusZeroGoesOnToTheConnectRequest() {
        for delivery in Delivery.all(of: [1, 0]) {
            var machine = Self.socks5(Self.name, credentials: Self.credentials)
            _ = machine.bytesReceived([5, 2])
            #expect(Self.feed(&machine, delivery) == .write(Self.connectRequest(Self.name)), "\(delivery)")
        }
    }

    @Test(arguments: [UInt8(1), 0xFF])
    func anyOtherStatusIsAnAuthenticationFailure(status: UInt8) {
        var machine = Self.socks5(Self.ipv4, credentials: Self.credentials)
        _ = machine.bytesReceived([5, 2])
        #expect(machine.bytesReceived([1, status]) == .fail(.authenticationFailed(status: status)))
    }

    @Test func anAuthenticationReplyOfAnotherVersionOrWithMoreBytesIsInvalid() {
        var version = Self.socks5(Self.ipv4, credentials: Self.credentials)
        _ = version.bytesReceived([5, 2])
        #expect(
            version.bytesReceived([5, 0]) == .fail(.invalidReply(step: .authentication, reason: "version 5, not 1")))
        var extra = Self.socks5(Self.ipv4, credentials: Self.credentials)
        _ = extra.bytesReceived([5, 2])
        #expect(
            extra.bytesReceived([1, 0, 0, 0])
                == .fail(.invalidReply(step: .authentication, reason: "2 bytes after the reply")))
    }

    // MARK: - Connect (rules 5 and 6)

    /// Success replies with each bound address type.
    private static let successReplies: [[UInt8]] = [
        [5, 0, 0, 1, 10, 0, 0, 1, 0x1F, 0x90],
        [5, 0, 0, 4] + Array(repeating: 0, count: 16) + [0x01, 0xBB],
        [5, 0, 0, 3, 5] + Array("proxy".utf8) + [0x04, 0x38],
    ]

    @Test(arguments: successReplies)
    func aSuccessReplyOpensTheTunnelOnceWhole(reply: [UInt8]) {
        for delivery in Delivery.all(of: reply) {
            var machine = Self.socks5(Self.ipv4)
            _ = machine.bytesReceived([5, 0])
            #expect(Self.feed(&machine, delivery) == .tunnelOpened, "\(delivery)")
        }
    }

    @Test func theReservedByteIsNotChecked() {
        var machine = Self.socks5(Self.ipv4)
        _ = machine.bytesReceived([5, 0])
        #expect(machine.bytesReceived([5, 0, 0x7F, 1, 0, 0, 0, 0, 0, 0]) == .tunnelOpened)
    }

    @Test(arguments: UInt8(1)...UInt8(9))
    func aFailureReplyFailsAsSoonAsItsCodeIsRead(code: UInt8) {
        var machine = Self.socks5(Self.name)
        _ = machine.bytesReceived([5, 0])
        #expect(machine.bytesReceived([5]) == .needMoreBytes)
        let reply = SOCKSReply(version: 5, code: code)
        #expect(machine.bytesReceived([code]) == .fail(.connectRefused(target: "example.com:443", reply: reply)))
    }

    @Test func replyCodesNameTheirRFCMeaning() {
        #expect(SOCKSReply(version: 5, code: 1).meaning == "general SOCKS server failure")
        #expect(SOCKSReply(version: 5, code: 2).meaning == "connection not allowed by ruleset")
        #expect(SOCKSReply(version: 5, code: 3).meaning == "network unreachable")
        #expect(SOCKSReply(version: 5, code: 4).meaning == "host unreachable")
        #expect(SOCKSReply(version: 5, code: 5).description == "reply 5 (connection refused)")
        #expect(SOCKSReply(version: 5, code: 6).meaning == "TTL expired")
        #expect(SOCKSReply(version: 5, code: 7).meaning == "command not supported")
        #expect(SOCKSReply(version: 5, code: 8).meaning == "address type not supported")
        #expect(SOCKSReply(version: 5, code: 9).meaning == "unassigned reply code")
        #expect(SOCKSReply(version: 4, code: 91).meaning == "request rejected or failed")
        #expect(SOCKSReply(version: 4, code: 92).meaning.contains("identd"))
        #expect(SOCKSReply(version: 4, code: 93).meaning.contains("identd"))
    }

    @Test func aConnectReplyOfAnotherVersionOrAddressTypeIsInvalid() {
        var version = Self.socks5(Self.ipv4)
        _ = version.bytesReceived([5, 0])
        #expect(version.bytesReceived([0, 0]) == .fail(.invalidReply(step: .connect, reason: "version 0, not 5")))
        var type = Self.socks5(Self.ipv4)
        _ = type.bytesReceived([5, 0])
        #expect(
            type.bytesReceived([5, 0, 0, 9, 0])
                == .fail(.invalidReply(step: .connect, reason: "unknown address type 9")))
    }

    @Test func bytesAfterTheSuccessReplyAreUnexpected() {
        var machine = Self.socks5(Self.ipv4)
        _ = machine.bytesReceived([5, 0])
        #expect(
            machine.bytesReceived(Self.successReplies[0] + Array("HTTP".utf8)) == .fail(.unexpectedBytes(count: 4)))
    }

    // MARK: - Closes (rule 7)

    @Test func aCloseNamesTheStepItInterrupted() {
        var negotiation = Self.socks5(Self.ipv4, credentials: Self.credentials)
        #expect(negotiation.connectionClosed() == .fail(.closed(step: .methodNegotiation)))
        var authentication = Self.socks5(Self.ipv4, credentials: Self.credentials)
        _ = authentication.bytesReceived([5, 2])
        #expect(authentication.connectionClosed() == .fail(.closed(step: .authentication)))
        var connect = Self.socks5(Self.ipv4)
        _ = connect.bytesReceived([5, 0])
        _ = connect.bytesReceived([5, 0, 0])
        #expect(connect.connectionClosed() == .fail(.closed(step: .connect)))
    }

    // MARK: - SOCKS4 and SOCKS4a

    @Test func socks4SendsTheAddressAndUserIDAtOnce() {
        var machine = SOCKSHandshake(version: .socks4, target: Self.ipv4, credentials: Self.credentials)
        #expect(machine.start() == .write([4, 1, 0x1F, 0x90, 127, 0, 0, 1] + Array("alice".utf8) + [0]))
    }

    @Test func socks4aSendsTheNameAfterTheUserID() {
        var machine = SOCKSHandshake(version: .socks4, target: Self.name, credentials: nil)
        #expect(machine.start() == .write([4, 1, 0x01, 0xBB, 0, 0, 0, 1, 0] + Array("example.com".utf8) + [0]))
    }

    @Test func socks4GrantedOpensTheTunnelOnceWhole() {
        for delivery in Delivery.all(of: [0, 90, 0, 0, 0, 0, 0, 0]) {
            var machine = SOCKSHandshake(version: .socks4, target: Self.name, credentials: nil)
            _ = machine.start()
            #expect(Self.feed(&machine, delivery) == .tunnelOpened, "\(delivery)")
        }
    }

    @Test(arguments: UInt8(91)...UInt8(93))
    func socks4RejectionsAreConnectRefusals(code: UInt8) {
        var machine = SOCKSHandshake(version: .socks4, target: Self.ipv4, credentials: nil)
        _ = machine.start()
        #expect(
            machine.bytesReceived([0, code])
                == .fail(.connectRefused(target: "127.0.0.1:8080", reply: SOCKSReply(version: 4, code: code))))
    }

    @Test func socks4RepliesOfAnotherVersionOrCodeOrWithMoreBytesAreInvalid() {
        var version = SOCKSHandshake(version: .socks4, target: Self.ipv4, credentials: nil)
        _ = version.start()
        #expect(version.bytesReceived([4, 90]) == .fail(.invalidReply(step: .connect, reason: "version 4, not 0")))
        var code = SOCKSHandshake(version: .socks4, target: Self.ipv4, credentials: nil)
        _ = code.start()
        #expect(code.bytesReceived([0, 0]) == .fail(.invalidReply(step: .connect, reason: "reply code 0")))
        var extra = SOCKSHandshake(version: .socks4, target: Self.ipv4, credentials: nil)
        _ = extra.start()
        #expect(extra.bytesReceived([0, 90, 0, 0, 0, 0, 0, 0, 1]) == .fail(.unexpectedBytes(count: 1)))
        var closed = SOCKSHandshake(version: .socks4, target: Self.ipv4, credentials: nil)
        _ = closed.start()
        #expect(closed.connectionClosed() == .fail(.closed(step: .connect)))
    }

    // MARK: - Failures read as their step

    @Test func failuresNameTheirStep() {
        #expect(SOCKSFailure.noAcceptableMethod(credentialsOffered: false).step == .methodNegotiation)
        #expect(SOCKSFailure.authenticationFailed(status: 1).step == .authentication)
        let refused = SOCKSFailure.connectRefused(target: "a:1", reply: SOCKSReply(version: 5, code: 5))
        #expect(refused.step == .connect)
        #expect(refused.description == "refused to connect to a:1: reply 5 (connection refused)")
        #expect(SOCKSFailure.unexpectedBytes(count: 1).step == .connect)
        #expect(
            ProxyTunnelError.socks(proxy: "127.0.0.1:1080", .authenticationFailed(status: 1)).description
                == "SOCKS proxy 127.0.0.1:1080 refused the user name and password (status 1)")
    }
}
