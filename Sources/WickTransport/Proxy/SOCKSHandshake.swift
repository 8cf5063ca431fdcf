// The client side of a SOCKS5 (RFC 1928, RFC 1929) or SOCKS4/4a handshake, sans-I/O.
//
// Rules
//
// 1. `start` is the first input: it writes the SOCKS5 greeting (the methods offered: "no
//    authentication", and "user name and password" when credentials are set, RFC 1928 §3) or,
//    for SOCKS4, the whole connect request (SOCKS4 has no negotiation).
// 2. The proxy answers each request with one reply of known length; bytes are buffered until
//    the reply is whole (the longest, a SOCKS5 connect reply with a name, is 262 bytes). Every
//    reply is checked byte by byte: its version (5 for SOCKS5 replies, 1 for the RFC 1929
//    sub-negotiation, 0 for a SOCKS4 reply), then its code. `RSV` and the bound address are
//    read past, never used (as curl does).
// 3. Method negotiation: `X'00'` goes on to the connect request; `X'02'`, when offered, to the
//    user name and password (RFC 1929 §2); `X'FF'` fails as `noAcceptableMethod`; any other
//    method (one not offered) is an invalid reply.
// 4. Authentication: status 0 goes on to the connect request; any other status fails as
//    `authenticationFailed`.
// 5. Connect: the target goes as the proxy should see it: an IPv4 or IPv6 address, or a name
//    (SOCKS5 `ATYP` 3; SOCKS4a's `0.0.0.1` form). A reply other than success (SOCKS5 `REP` 0,
//    SOCKS4 `CD` 90) fails as `connectRefused` with its code as soon as the code is read; a
//    success opens the tunnel once the whole reply is read.
// 6. A reply must come alone: bytes beyond it before the client spoke again are an invalid
//    reply during negotiation and authentication, and `unexpectedBytes` after the connect
//    reply (nothing in the tunnel can be an answer yet, and dropping them would hide a confused
//    or hostile proxy).
// 7. A close before the handshake ends fails as `closed`, naming the step.
// 8. Every outcome is final: once the tunnel is open or the handshake failed, the machine takes
//    no more input. The runner's limits (user name, password and name lengths, an IPv4 target
//    for SOCKS4) are preconditions of `init`. Any input in a state where it cannot happen is a
//    runner bug and traps, naming the state and the event.

package import WickTLS
import WickReactor

/// The SOCKS handshake of one connection to a proxy: the runner (`SOCKSTunnel`) feeds it the
/// proxy's bytes and performs the action each input returns, so the runner decides nothing.
/// The rules are at the top of this file.
package struct SOCKSHandshake: Sendable {
    /// The protocol version spoken.
    package enum Version: UInt8, Sendable {
        /// SOCKS4, and SOCKS4a when the target is a name.
        case socks4 = 4
        /// SOCKS5.
        case socks5 = 5
    }

    /// Where the proxy should connect: an address, or a name the proxy resolves.
    package enum Target: Sendable, Equatable, CustomStringConvertible {
        /// 4 bytes, network order.
        case ipv4([UInt8], port: UInt16)
        /// 16 bytes, network order.
        case ipv6([UInt8], port: UInt16)
        /// A host name of 1 to 255 bytes.
        case name(String, port: UInt16)

        /// `host:port` (IPv6 bracketed), as errors name the target.
        package var description: String {
            switch self {
            case .ipv4(let bytes, let port): SocketAddress.ipv4(bytes: bytes, port: port).description
            case .ipv6(let bytes, let port): SocketAddress.ipv6(bytes: bytes, port: port, scopeID: 0).description
            case .name(let name, let port): "\(name):\(port)"
            }
        }
    }

    /// What the runner does next.
    package enum Action: Sendable, Equatable {
        /// Write these bytes to the proxy.
        case write([UInt8])
        /// Wait for more bytes.
        case needMoreBytes
        /// The tunnel is open: the connection now leads to the target.
        case tunnelOpened
        /// The handshake failed: close the connection.
        case fail(SOCKSFailure)
    }

    private enum State: Sendable, CustomStringConvertible {
        case initial
        case awaitingMethodChoice
        case awaitingAuthenticationStatus
        case awaitingConnectReply
        case finished

        var description: String {
            switch self {
            case .initial: "initial"
            case .awaitingMethodChoice: "awaitingMethodChoice"
            case .awaitingAuthenticationStatus: "awaitingAuthenticationStatus"
            case .awaitingConnectReply: "awaitingConnectReply"
            case .finished: "finished"
            }
        }
    }

    /// The longest user name, password or host name the protocol can carry (one length byte).
    package static let maximumFieldLength = 255

    private let version: Version
    private let target: Target
    private let credentials: ProxyCredentials?
    private var state = State.initial
    /// The bytes of the reply being read; never more than one reply plus what came with it.
    private var pending: [UInt8] = []

    /// A handshake asking a `version` proxy for `target`, authenticating with `credentials`
    /// (SOCKS5: user name and password, each at most 255 bytes; SOCKS4: the user name as the
    /// user id, without NUL). A SOCKS4 target is an IPv4 address or a name; a name is 1 to 255
    /// bytes without NUL. The runner checks these first: breaking them traps.
    package init(version: Version, target: Target, credentials: ProxyCredentials?) {
        if let credentials {
            precondition(
                credentials.username.utf8.count <= Self.maximumFieldLength
                    && credentials.password.utf8.count <= Self.maximumFieldLength
                    && !credentials.username.utf8.contains(0),
                "SOCKSHandshake: credentials the protocol cannot carry")
        }
        switch target {
        case .name(let name, _):
            precondition(
                (1...Self.maximumFieldLength).contains(name.utf8.count) && !name.utf8.contains(0),
                "SOCKSHandshake: a name the protocol cannot carry")
        case .ipv6:
            precondition(version == .socks5, "SOCKSHandshake: SOCKS4 has no IPv6 target")
        case .ipv4:
            break
        }
        self.version = version
        self.target = target
        self.credentials = credentials
    }

    /// The step the handshake is at, for a failure that names it.
    private var step: SOCKSHandshakeStep {
        switch state {
        case .awaitingMethodChoice: .methodNegotiation
        case .awaitingAuthenticationStatus: .authentication
        case .initial, .awaitingConnectReply, .finished: .connect
        }
    }

    // MARK: - Inputs

    /// The connection to the proxy is open: the first request to write (rule 1).
    package mutating func start() -> Action {
        guard case .initial = state else { invalid("start") }
        switch version {
        case .socks5:
            state = .awaitingMethodChoice
            return .write(credentials == nil ? [5, 1, 0x00] : [5, 2, 0x00, 0x02])
        case .socks4:
            state = .awaitingConnectReply
            return .write(socks4ConnectRequest())
        }
    }

    /// The proxy sent `bytes`.
    package mutating func bytesReceived(_ bytes: some Collection<UInt8>) -> Action {
        switch state {
        case .awaitingMethodChoice, .awaitingAuthenticationStatus, .awaitingConnectReply: break
        case .initial, .finished: invalid("bytesReceived")
        }
        pending.append(contentsOf: bytes)
        switch state {
        case .awaitingMethodChoice: return methodChoice()
        case .awaitingAuthenticationStatus: return authenticationStatus()
        case .awaitingConnectReply: return version == .socks5 ? socks5ConnectReply() : socks4ConnectReply()
        case .initial, .finished: invalid("bytesReceived")
        }
    }

    /// The proxy closed the connection (or it failed) before the handshake ended (rule 7).
    package mutating func connectionClosed() -> Action {
        switch state {
        case .awaitingMethodChoice, .awaitingAuthenticationStatus, .awaitingConnectReply:
            return finish(.fail(.closed(step: step)))
        case .initial, .finished: invalid("connectionClosed")
        }
    }

    // MARK: - Replies

    /// RFC 1928 §3: `VER METHOD` (rule 3).
    private mutating func methodChoice() -> Action {
        guard pending.count >= 2 else { return .needMoreBytes }
        if pending[0] != 5 { return finish(.fail(.invalidReply(step: step, reason: "version \(pending[0]), not 5"))) }
        if let extra = extraBytes(after: 2) { return extra }
        let method = pending[1]
        pending.removeAll()
        switch method {
        case 0x00:
            state = .awaitingConnectReply
            return .write(socks5ConnectRequest())
        case 0x02 where credentials != nil:
            state = .awaitingAuthenticationStatus
            return .write(authenticationRequest())
        case 0xFF:
            return finish(.fail(.noAcceptableMethod(credentialsOffered: credentials != nil)))
        default:
            return finish(.fail(.invalidReply(step: step, reason: "method \(method), which was not offered")))
        }
    }

    /// RFC 1929 §2: `VER STATUS` (rule 4).
    private mutating func authenticationStatus() -> Action {
        guard pending.count >= 2 else { return .needMoreBytes }
        if pending[0] != 1 { return finish(.fail(.invalidReply(step: step, reason: "version \(pending[0]), not 1"))) }
        if let extra = extraBytes(after: 2) { return extra }
        let status = pending[1]
        pending.removeAll()
        guard status == 0 else { return finish(.fail(.authenticationFailed(status: status))) }
        state = .awaitingConnectReply
        return .write(socks5ConnectRequest())
    }

    /// RFC 1928 §6: `VER REP RSV ATYP BND.ADDR BND.PORT` (rule 5).
    private mutating func socks5ConnectReply() -> Action {
        guard pending.count >= 2 else { return .needMoreBytes }
        if pending[0] != 5 { return finish(.fail(.invalidReply(step: step, reason: "version \(pending[0]), not 5"))) }
        if pending[1] != 0 {
            return finish(.fail(.connectRefused(target: "\(target)", reply: SOCKSReply(version: 5, code: pending[1]))))
        }
        guard pending.count >= 5 else { return .needMoreBytes }
        let length: Int
        switch pending[3] {
        case 1: length = 4 + 4 + 2
        case 4: length = 4 + 16 + 2
        case 3: length = 4 + 1 + Int(pending[4]) + 2
        default:
            return finish(.fail(.invalidReply(step: step, reason: "unknown address type \(pending[3])")))
        }
        guard pending.count >= length else { return .needMoreBytes }
        guard pending.count == length else { return finish(.fail(.unexpectedBytes(count: pending.count - length))) }
        return finish(.tunnelOpened)
    }

    /// SOCKS4: `VN CD DSTPORT DSTIP`, 8 bytes (rule 5).
    private mutating func socks4ConnectReply() -> Action {
        guard pending.count >= 2 else { return .needMoreBytes }
        if pending[0] != 0 { return finish(.fail(.invalidReply(step: step, reason: "version \(pending[0]), not 0"))) }
        switch pending[1] {
        case 90: break
        case 91...93:
            return finish(.fail(.connectRefused(target: "\(target)", reply: SOCKSReply(version: 4, code: pending[1]))))
        default:
            return finish(.fail(.invalidReply(step: step, reason: "reply code \(pending[1])")))
        }
        guard pending.count >= 8 else { return .needMoreBytes }
        guard pending.count == 8 else { return finish(.fail(.unexpectedBytes(count: pending.count - 8))) }
        return finish(.tunnelOpened)
    }

    /// A failure when more than `length` bytes are pending during negotiation (rule 6).
    private mutating func extraBytes(after length: Int) -> Action? {
        guard pending.count > length else { return nil }
        return finish(
            .fail(.invalidReply(step: step, reason: "\(pending.count - length) bytes after the reply")))
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        pending = []
        return action
    }

    // MARK: - Requests

    /// RFC 1929 §2: `VER ULEN UNAME PLEN PASSWD`.
    private func authenticationRequest() -> [UInt8] {
        let user = Array(credentials?.username.utf8 ?? "".utf8)
        let password = Array(credentials?.password.utf8 ?? "".utf8)
        return [1, UInt8(user.count)] + user + [UInt8(password.count)] + password
    }

    /// RFC 1928 §4: `VER CMD RSV ATYP DST.ADDR DST.PORT`, CMD 1 (CONNECT).
    private func socks5ConnectRequest() -> [UInt8] {
        switch target {
        case .ipv4(let bytes, let port): [5, 1, 0, 1] + bytes + Self.bigEndian(port)
        case .ipv6(let bytes, let port): [5, 1, 0, 4] + bytes + Self.bigEndian(port)
        case .name(let name, let port): [5, 1, 0, 3, UInt8(name.utf8.count)] + Array(name.utf8) + Self.bigEndian(port)
        }
    }

    /// SOCKS4: `VN CD DSTPORT DSTIP USERID NUL`; SOCKS4a puts `0.0.0.1` in `DSTIP` and the name
    /// after the user id, NUL-terminated.
    private func socks4ConnectRequest() -> [UInt8] {
        let userID = Array(credentials?.username.utf8 ?? "".utf8) + [0]
        switch target {
        case .ipv4(let bytes, let port): return [4, 1] + Self.bigEndian(port) + bytes + userID
        case .name(let name, let port):
            return [4, 1] + Self.bigEndian(port) + [0, 0, 0, 1] + userID + Array(name.utf8) + [0]
        case .ipv6: preconditionFailure("SOCKSHandshake: SOCKS4 has no IPv6 target")
        }
    }

    private static func bigEndian(_ port: UInt16) -> [UInt8] { [UInt8(port >> 8), UInt8(port & 0xFF)] }

    private func invalid(_ event: String) -> Never {
        preconditionFailure("SOCKSHandshake: \(event) in state \(state)")
    }
}
