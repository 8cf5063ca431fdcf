// SourceBinding: addresses and port ranges checked when made, curl's `--local-port` syntax, and the
// binding as part of the pool's origin key.
import Testing

@testable import WickTransport

@Suite struct SourceBindingTests {
    @Test func bindingsAreCheckedWhenMade() throws {
        #expect(try SourceBinding(address: "127.0.0.2").description == "127.0.0.2")
        #expect(try SourceBinding(address: "[::1]", ports: 4000...4099).description == "[::1] ports 4000-4099")
        #expect(try SourceBinding(ports: 5000...5000).address == nil)
        #expect(throws: SourceBindingError.invalidAddress("eth0")) { try SourceBinding(address: "eth0") }
        #expect(throws: SourceBindingError.invalidPortRange("0-10")) { try SourceBinding(ports: 0...10) }
        #expect(throws: SourceBindingError.invalidPortRange("1-65536")) { try SourceBinding(ports: 1...65_536) }
        #expect(throws: SourceBindingError.empty) { try SourceBinding() }
    }

    @Test(arguments: [("4000", 4000...4000), ("4000-4099", 4000...4099), ("1-65535", 1...65_535)])
    func localPortParses(_ text: String, _ expected: ClosedRange<Int>) throws {
        #expect(try SourceBinding.ports(curlArgument: text) == expected)
    }

    @Test(arguments: ["", "0", "65536", "5-3", "a", "1-2-3", "-5", "5-", "+5", "123456"])
    func badLocalPortsAreRefused(_ text: String) {
        #expect(throws: SourceBindingError.invalidPortRange(text)) { try SourceBinding.ports(curlArgument: text) }
    }

    @Test func theBindingIsPartOfTheOriginKey() throws {
        let from2 = try SourceBinding(address: "127.0.0.2")
        let plain = TransportOrigin(scheme: .http, host: "a.test", port: 80, tls: nil)
        let bound = TransportOrigin(scheme: .http, host: "a.test", port: 80, tls: nil, source: from2)
        let boundAgain = TransportOrigin(scheme: .http, host: "a.test", port: 80, tls: nil, source: from2)
        let other = TransportOrigin(
            scheme: .http, host: "a.test", port: 80, tls: nil, source: try SourceBinding(address: "127.0.0.3"))
        #expect(plain != bound && bound == boundAgain && bound != other)
        #expect(bound.description == "http://a.test:80 from 127.0.0.2")
        // A Unix socket is never bound.
        let socket = TransportOrigin(
            scheme: .http, host: "a.test", port: 80, unixSocketPath: try UnixSocketPath("/run/a.sock"), tls: nil,
            source: from2)
        #expect(socket.source == nil)
    }

    @Test func bindingsMadeApartAreEqualByValue() throws {
        // Each binding keeps its fields in storage of its own: equality and hashing go by value.
        let first = try SourceBinding(address: "[::1]", ports: 4000...4099)
        let second = try SourceBinding(address: "::1", ports: 4000...4099)
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        #expect(first != (try SourceBinding(address: "::1", ports: 4000...4098)))
        #expect(first != (try SourceBinding(address: "::1")))
        #expect(try SourceBinding(ports: 5000...5000) != (try SourceBinding(address: "127.0.0.1", ports: 5000...5000)))
        // The same binding behind two requests makes one origin key.
        let a = TransportOrigin(scheme: .http, host: "a.test", port: 80, tls: nil, source: first)
        let b = TransportOrigin(scheme: .http, host: "a.test", port: 80, tls: nil, source: second)
        #expect(a == b && a.hashValue == b.hashValue)
    }

    @Test func aRequestKeepsItsBindingInTheRouteItsOriginShares() throws {
        #expect(TransportRequest(.get, .http, host: "a.test").route == nil)
        let from2 = try SourceBinding(address: "127.0.0.2")
        let request = TransportRequest(.get, .http, host: "a.test", source: from2)
        #expect(request.origin == TransportOrigin(scheme: .http, host: "a.test", port: 80, tls: nil, source: from2))
        #expect(request.origin.route === request.route)
        // Beside a Unix socket a binding is dropped, as the origin drops it.
        let socket = TransportRequest(
            .get, .http, host: "a.test", unixSocketPath: try UnixSocketPath("/run/a.sock"), source: from2)
        #expect(socket.source == nil && socket.unixSocketPath?.path == "/run/a.sock")
    }
}
