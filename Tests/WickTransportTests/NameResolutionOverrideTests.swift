// curl's `--resolve` and `--connect-to` entries: their syntax, each fault named, and which target
// a request's host and port get.
import Testing

@testable import WickTransport

@Suite struct NameResolutionOverrideTests {
    @Test(arguments: [
        ("example.com:443:127.0.0.1", "example.com", 443, ["127.0.0.1"]),
        ("Example.COM:80:10.0.0.1,10.0.0.2", "example.com", 80, ["10.0.0.1", "10.0.0.2"]),
        ("a.test:8443:[::1],127.0.0.1", "a.test", 8443, ["::1", "127.0.0.1"]),
        ("[::1]:443:127.0.0.1", "::1", 443, ["127.0.0.1"]),
        ("+a.test:1:127.0.0.1", "a.test", 1, ["127.0.0.1"]),
    ])
    func resolveEntriesParse(_ entry: String, host: String, port: Int, addresses: [String]) throws {
        let parsed = try ResolveOverride(curlArgument: entry)
        #expect(parsed.host == host && parsed.port == port && parsed.addresses == addresses)
        #expect(try ResolveOverride(curlArgument: parsed.description) == parsed)
        #expect(try ResolveOverride(host: host, port: port, addresses: addresses) == parsed)
    }

    @Test(arguments: [
        ("a.test:443", NameResolutionOverrideError.malformed(entry: "a.test:443")),
        ("a.test:443:127.0.0.1:9", .malformed(entry: "a.test:443:127.0.0.1:9")),
        ("a.test:443:127.0.0.1,", .malformed(entry: "a.test:443:127.0.0.1,")),
        ("a.test:0:127.0.0.1", .invalidPort(entry: "a.test:0:127.0.0.1", port: "0")),
        ("a.test:65536:127.0.0.1", .invalidPort(entry: "a.test:65536:127.0.0.1", port: "65536")),
        ("a.test:+80:127.0.0.1", .invalidPort(entry: "a.test:+80:127.0.0.1", port: "+80")),
        ("a.test:443:example.org", .invalidAddress(entry: "a.test:443:example.org", address: "example.org")),
        ("a.test:443:999.0.0.1", .invalidAddress(entry: "a.test:443:999.0.0.1", address: "999.0.0.1")),
        (":443:127.0.0.1", .invalidHost(entry: ":443:127.0.0.1", host: "")),
        ("a b:443:127.0.0.1", .invalidHost(entry: "a b:443:127.0.0.1", host: "a b")),
        ("-a.test:443", .removalNotSupported(entry: "-a.test:443")),
    ])
    func badResolveEntriesNameTheirFault(_ entry: String, _ expected: NameResolutionOverrideError) {
        #expect(throws: expected) { try ResolveOverride(curlArgument: entry) }
    }

    @Test func anOverrideNeedsAnAddress() {
        #expect(throws: NameResolutionOverrideError.malformed(entry: "a.test:1:")) {
            try ResolveOverride(host: "a.test", port: 1, addresses: [])
        }
    }

    @Test(
        arguments: [
            ("a.test:443:b.test:8443", "a.test", 443, "b.test", 8443),
            ("::127.0.0.1:", nil, nil, "127.0.0.1", nil),
            ("a.test:::9000", "a.test", nil, nil, 9000),
            ("[::1]:443:[::2]:", "::1", 443, "::2", nil),
            (":::", nil, nil, nil, nil),
        ] as [(String, String?, Int?, String?, Int?)])
    func connectToEntriesParse(_ entry: String, fromHost: String?, fromPort: Int?, toHost: String?, toPort: Int?) throws
    {
        let parsed = try ConnectToOverride(curlArgument: entry)
        #expect(parsed.requestHost == fromHost && parsed.requestPort == fromPort)
        #expect(parsed.connectHost == toHost && parsed.connectPort == toPort)
        #expect(try ConnectToOverride(curlArgument: parsed.description) == parsed)
    }

    @Test(arguments: [
        ("a.test:443:b.test", NameResolutionOverrideError.malformed(entry: "a.test:443:b.test")),
        ("a.test:443:b.test:x", .invalidPort(entry: "a.test:443:b.test:x", port: "x")),
        ("a.test:99999::", .invalidPort(entry: "a.test:99999::", port: "99999")),
        ("a/b:443::", .invalidHost(entry: "a/b:443::", host: "a/b")),
    ])
    func badConnectToEntriesNameTheirFault(_ entry: String, _ expected: NameResolutionOverrideError) {
        #expect(throws: expected) { try ConnectToOverride(curlArgument: entry) }
    }

    @Test func theFirstMatchingConnectToEntryPicksTheTarget() throws {
        let resolution = NameResolution(connectToOverrides: [
            try ConnectToOverride(curlArgument: "a.test:443:blue.test:8443"),
            try ConnectToOverride(curlArgument: "a.test::green.test:"),
            try ConnectToOverride(curlArgument: ":80::8080"),
        ])
        #expect(resolution.connectTarget(host: "a.test", port: 443) == ("blue.test", 8443))
        #expect(resolution.connectTarget(host: "a.test", port: 444) == ("green.test", 444))
        #expect(resolution.connectTarget(host: "a.test", port: 80) == ("green.test", 80))
        #expect(resolution.connectTarget(host: "b.test", port: 80) == ("b.test", 8080))
        #expect(resolution.connectTarget(host: "b.test", port: 443) == ("b.test", 443))
        #expect(NameResolution().isSystemDefault && !resolution.isSystemDefault)
    }
}
