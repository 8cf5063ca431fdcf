// The Host field a request sends (RFC 9110 §7.2): the URL's host, an IPv6 literal in brackets, and
// the port unless it is the scheme's default.
import FoundationEssentials
import Testing

@testable import WickTransport

@Suite struct HostFieldValueTests {
    @Test(arguments: [
        (TransportOrigin.Scheme.http, "example.com", UInt16(80), "example.com"),
        (.https, "example.com", 443, "example.com"), (.http, "example.com", 443, "example.com:443"),
        (.https, "example.com", 80, "example.com:80"), (.http, "127.0.0.1", 49_152, "127.0.0.1:49152"),
        (.http, "h", 1, "h:1"), (.http, "h", 10, "h:10"), (.http, "h", 100, "h:100"), (.http, "h", 10_000, "h:10000"),
        (.http, "h", 65_535, "h:65535"), (.http, "::1", 80, "[::1]"), (.https, "::1", 8443, "[::1]:8443"),
        (.http, "fe80::1%25eth0", 8080, "[fe80::1%25eth0]:8080"),
        (.http, "a-very-long-host-name.example.internal", 8080, "a-very-long-host-name.example.internal:8080"),
    ])
    func hostField(scheme: TransportOrigin.Scheme, host: String, port: UInt16, expected: String) {
        #expect(TransportRequest(.get, scheme, host: host, port: port).hostFieldValue == expected)
    }

    /// A destination makes the value once, with the reading, for the port it checks; the request
    /// prepared from it carries that value.
    @Test(arguments: [
        ("http://example.com/a", "example.com"), ("https://example.com:8443/", "example.com:8443"),
        ("http://[::1]:8080/x?y", "[::1]:8080"), ("https://[::1]/", "[::1]"), ("http://127.0.0.1:80/", "127.0.0.1"),
    ])
    func aDestinationMakesTheValueOnce(url: String, expected: String) throws {
        let destination = try TransportDestination(url: #require(URL(string: url)), unixSocketPath: nil)
        #expect(destination.hostFieldValue == expected)
        let port = try destination.checkedPort()
        #expect(
            TransportRequest.hostFieldValue(host: destination.host, port: port, scheme: destination.scheme) == expected)
    }

    @Test func aPortOutOfRangeMakesNoValue() throws {
        let destination = try TransportDestination(
            url: #require(URL(string: "http://example.com:70000/")), unixSocketPath: nil)
        #expect(destination.hostFieldValue == nil)
        #expect(throws: TransportPreparationError.self) { try destination.checkedPort() }
    }

    /// A destination's target and Host value are vetted once, with the reading; a request made
    /// from it carries the mark to the encoder until its target changes.
    @Test func aDestinationVetsItsTargetAndHostOnce() throws {
        let destination = try TransportDestination(
            url: #require(URL(string: "http://example.com:8080/a/b?c=d")), unixSocketPath: nil)
        #expect(destination.isVettedForHTTP1)
        var request = TransportRequest(.get, .http, host: "example.com", port: 8080, target: destination.target)
        #expect(!request.connectionRequest.hasVettedOriginTargetAndHost)
        request.hasVettedOriginTargetAndHost = destination.isVettedForHTTP1
        #expect(request.connectionRequest.hasVettedOriginTargetAndHost)
        request.target = "/other"
        #expect(!request.connectionRequest.hasVettedOriginTargetAndHost)
        // A port out of range makes no Host value, so nothing is vetted.
        let unusable = try TransportDestination(
            url: #require(URL(string: "http://example.com:70000/")), unixSocketPath: nil)
        #expect(!unusable.isVettedForHTTP1)
    }
}
