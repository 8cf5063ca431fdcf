// Proxy URLs, NO_PROXY lists, credentials, and what the transport sends through a proxy.
import Testing
import WickCore
import WickHTTP1
import WickTLS

@testable import WickTransport

struct ProxyConfigurationTests {
    @Test(arguments: [
        ("proxy.example", "proxy.example", UInt16(1080)),
        ("http://proxy.example", "proxy.example", 1080),
        ("HTTP://Proxy.Example:3128/", "proxy.example", 3128),
        ("127.0.0.1:8080", "127.0.0.1", 8080),
        ("http://[::1]:3128", "::1", 3128),
        ("[fe80::1]", "fe80::1", 1080),
        ("http://proxy:65535", "proxy", 65535),
    ])
    func urlsCurlAccepts(_ url: String, host: String, port: UInt16) throws {
        let proxy = try ProxyConfiguration(url: url)
        #expect(proxy.host == host && proxy.port == port && proxy.credentials == nil)
    }

    @Test func credentialsArePercentDecodedAndAPasswordMayBeEmpty() throws {
        let full = try ProxyConfiguration(url: "http://user%20one:pa%25ss@proxy:1")
        #expect(full.credentials == ProxyCredentials(username: "user one", password: "pa%ss"))
        let userOnly = try ProxyConfiguration(url: "user@proxy:1")
        #expect(userOnly.credentials == ProxyCredentials(username: "user", password: ""))
    }

    @Test(arguments: [
        ("socks5://proxy:1080", ProxyScheme.socks5), ("SOCKS5H://proxy", .socks5h), ("socks4://proxy", .socks4),
        ("socks4a://proxy:9050", .socks4a), ("http://proxy", .http), ("proxy", .http), ("HTTPS://proxy", .https),
    ])
    func theSchemeNamesTheProtocol(_ url: String, scheme: ProxyScheme) throws {
        let proxy = try ProxyConfiguration(url: url)
        #expect(proxy.scheme == scheme && proxy.host == "proxy")
        #expect(proxy.description.hasPrefix("\(scheme)://proxy:"))
    }

    @Test(arguments: ["socks://proxy", "ftp://proxy", "spdy://proxy:443"])
    func otherSchemesAreRefusedNamingTheSupportedOnes(_ url: String) {
        #expect {
            try ProxyConfiguration(url: url)
        } throws: { error in
            guard case ProxyConfigurationError.unsupportedScheme = error else { return false }
            return "\(error)".contains("socks5h://") && "\(error)".contains("https://")
        }
    }

    @Test func anHTTPSProxyDefaultsToPort443AndTheSystemTrustAsCurlDoes() throws {
        let proxy = try ProxyConfiguration(url: "https://user:pw@proxy.example")
        #expect(proxy.scheme == .https && proxy.port == 443 && proxy.tlsTrust == .system)
        #expect(proxy.credentials == ProxyCredentials(username: "user", password: "pw"))
        #expect(try ProxyConfiguration(url: "https://proxy.example:8443").port == 8443)
        #expect(try ProxyConfiguration(url: "http://proxy.example").port == 1080)
        #expect(ProxyConfiguration(.https, host: "proxy").port == 443)
        #expect(ProxyConfiguration(.socks5, host: "proxy").port == 1080)
        #expect(proxy.scheme.speaksHTTP && proxy.scheme.usesTLS && !proxy.scheme.isSOCKS)
        #expect(proxy.description == "https://proxy.example:443")
    }

    @Test func anHTTPSProxysTrustIsItsOwnAndOffersOnlyHTTP1() throws {
        let trust = ProxyTLSTrust(roots: .certificates([]))
        #expect(trust.configuration.trustRoots == .certificates([]))
        #expect(trust.configuration.applicationProtocols == ["http/1.1"])
        #expect(trust.evaluator is DefaultTrustEvaluator)
        #expect(ProxyTLSTrust.unverified.evaluator is DisabledTrustEvaluator)
        #expect(ProxyTLSTrust.system.configuration.trustRoots == .system)
    }

    @Test func socks5CredentialsOver255BytesAreRefused() throws {
        let long = String(repeating: "u", count: 256)
        #expect(throws: ProxyConfigurationError.self) { try ProxyConfiguration(url: "socks5://\(long):p@proxy") }
        #expect(throws: ProxyConfigurationError.self) { try ProxyConfiguration(url: "socks5h://u:\(long)@proxy") }
        let limit = String(repeating: "u", count: 255)
        #expect(try ProxyConfiguration(url: "socks5://\(limit):\(limit)@proxy").credentials?.username == limit)
    }

    @Test(arguments: [
        "http://proxy:0", "http://proxy:65536", "http://proxy:+80", "http://proxy:port", "http://:3128", "http://",
        "http://proxy:1/path", "http://proxy:1?q", "http://[::1", "http://[::1]x", "http://us%zzer@proxy",
    ])
    func malformedURLsAreRefused(_ url: String) {
        #expect {
            try ProxyConfiguration(url: url)
        } throws: { error in
            guard case ProxyConfigurationError.malformedURL = error else { return false }
            return true
        }
    }

    @Test func descriptionsNeverShowThePassword() throws {
        let proxy = try ProxyConfiguration(url: "http://bob:hunter2@proxy:3128")
        #expect(proxy.description == "http://proxy:3128")
        #expect(!"\(try #require(proxy.credentials))".contains("hunter2"))
        #expect(ProxyURLParser.masked("http://bob:hunter2@proxy:3128/") == "http://bob:***@proxy:3128/")
        #expect(ProxyURLParser.masked("proxy:3128") == "proxy:3128")
    }

    @Test func basicCredentialsFollowRFC7617() {
        // RFC 7617 §2's example.
        #expect(
            ProxyCredentials(username: "Aladdin", password: "open sesame").authorizationValue
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        // One and two bytes of padding, and UTF-8.
        #expect(ProxyCredentials(username: "a", password: "").authorizationValue == "Basic YTo=")
        #expect(ProxyCredentials(username: "ab", password: "").authorizationValue == "Basic YWI6")
        #expect(ProxyCredentials(username: "é", password: "").authorizationValue == "Basic w6k6")
    }

    @Test func noProxyEntriesThatAreNotAddressesMatchNothing() {
        let list = NoProxyList("10.0.0.0/33, name/8, ::1/129")
        #expect(!list.matches(host: "10.0.0.1") && !list.matches(host: "name") && !list.matches(host: "::1"))
        #expect(NoProxyList(" , ,").isEmpty)
        #expect(NoProxyList("Example.COM.").matches(host: "www.example.com."))
        #expect(NoProxyList("0.0.0.0/0").matches(host: "8.8.8.8") && !NoProxyList("0.0.0.0/0").matches(host: "::1"))
    }

    // MARK: - The transport's side

    static let proxy = ProxyConfiguration(
        host: "proxy", port: 3128, credentials: ProxyCredentials(username: "u", password: "p"))

    static func encodedHead(_ request: TransportRequest) throws -> String {
        var bytes: [UInt8] = []
        try HTTPRequestEncoder.encodeHead(request.connectionRequest.head, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func plainHTTPThroughAProxyIsAbsoluteFormWithProxyAuthorization() throws {
        var request = TransportRequest(.get, .http, host: "example.com", port: 8080, target: "/a?b=c")
        request.proxy = Self.proxy
        let head = try Self.encodedHead(request)
        #expect(head.hasPrefix("GET http://example.com:8080/a?b=c HTTP/1.1\r\nHost: example.com:8080\r\n"))
        #expect(head.contains("Proxy-Authorization: Basic dTpw\r\n"))
    }

    @Test func plainHTTPThroughAnHTTPSProxyIsAbsoluteFormToo() throws {
        var request = TransportRequest(.get, .http, host: "example.com", target: "/a")
        var proxy = Self.proxy
        proxy.scheme = .https
        request.proxy = proxy
        let head = try Self.encodedHead(request)
        #expect(head.hasPrefix("GET http://example.com/a HTTP/1.1\r\n"))
        #expect(head.contains("Proxy-Authorization: Basic dTpw\r\n"))
    }

    @Test func httpsThroughAProxyIsOriginFormWithoutProxyCredentials() throws {
        var request = TransportRequest(.get, .https, host: "example.com", target: "/a")
        request.proxy = Self.proxy
        let head = try Self.encodedHead(request)
        #expect(head.hasPrefix("GET /a HTTP/1.1\r\nHost: example.com\r\n"))
        #expect(!head.contains("Proxy-Authorization"))
    }

    @Test func theProxyIsPartOfTheOriginKey() throws {
        let direct = TransportOrigin(scheme: .http, host: "example.com", port: 80, tls: nil)
        let proxied = TransportOrigin(scheme: .http, host: "example.com", port: 80, tls: nil, proxy: Self.proxy)
        var otherCredentials = Self.proxy
        otherCredentials.credentials = ProxyCredentials(username: "u", password: "other")
        let otherKey = TransportOrigin(scheme: .http, host: "example.com", port: 80, tls: nil, proxy: otherCredentials)
        #expect(direct != proxied && proxied != otherKey)
        #expect(proxied == TransportOrigin(scheme: .http, host: "EXAMPLE.com", port: 80, tls: nil, proxy: Self.proxy))
        #expect(proxied.description == "http://example.com:80 via proxy http://proxy:3128")
    }

    @Test func anHTTPSProxysTrustAndContextArePartOfTheOriginKey() throws {
        let context = ProxyTLSContext(context: try TLSContext())
        var proxy = Self.proxy
        proxy.scheme = .https
        var unverified = proxy
        unverified.tlsTrust = .unverified
        func origin(_ proxy: ProxyConfiguration, _ context: ProxyTLSContext) -> TransportOrigin {
            TransportOrigin(scheme: .http, host: "example.com", port: 80, tls: nil, proxy: proxy, proxyTLS: context)
        }
        #expect(origin(proxy, context) == origin(proxy, context))
        #expect(origin(proxy, context) != origin(unverified, context), "two trusts are two keys")
        let another = ProxyTLSContext(context: try TLSContext())
        #expect(origin(proxy, context) != origin(proxy, another), "two contexts are two keys, as for origins")
        // A plain HTTP proxy carries no context: one given is dropped.
        let plain = TransportOrigin(
            scheme: .http, host: "example.com", port: 80, tls: nil, proxy: Self.proxy, proxyTLS: context)
        #expect(plain.proxyTLS == nil)
    }

    @Test func aUnixSocketIsNeverProxied() throws {
        var request = TransportRequest(
            .get, .http, host: "localhost", unixSocketPath: try UnixSocketPath("/run/a.sock"))
        request.proxy = Self.proxy
        #expect(request.origin.proxy == nil)
        #expect(try Self.encodedHead(request).hasPrefix("GET / HTTP/1.1\r\n"))
    }
}
