// Proxy rules from environment variables: curl's rules, one table row each.
import Testing

@testable import Wick

struct ProxyEnvironmentTests {
    /// One environment and the proxies an http and an https request to `host` get from it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let environment: [String: String]
        var host = "example.com"
        let http: String?
        let https: String?

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "nothing set: direct", environment: [:], http: nil, https: nil),
        Case(
            name: "http_proxy for http only", environment: ["http_proxy": "proxy:3128"], http: "proxy:3128", https: nil),
        Case(
            name: "HTTP_PROXY is ignored (httpoxy)", environment: ["HTTP_PROXY": "evil:80"], http: nil, https: nil),
        Case(
            name: "HTTP_PROXY ignored even with all_proxy",
            environment: ["HTTP_PROXY": "evil:80", "all_proxy": "all:1"], http: "all:1", https: "all:1"),
        Case(name: "https_proxy for https", environment: ["https_proxy": "tls:8080"], http: nil, https: "tls:8080"),
        Case(name: "HTTPS_PROXY for https", environment: ["HTTPS_PROXY": "tls:8080"], http: nil, https: "tls:8080"),
        Case(
            name: "https_proxy wins over HTTPS_PROXY",
            environment: ["https_proxy": "lower:1", "HTTPS_PROXY": "upper:2"], http: nil, https: "lower:1"),
        Case(name: "all_proxy for both", environment: ["all_proxy": "all:1"], http: "all:1", https: "all:1"),
        Case(name: "ALL_PROXY for both", environment: ["ALL_PROXY": "all:2"], http: "all:2", https: "all:2"),
        Case(
            name: "all_proxy wins over ALL_PROXY", environment: ["all_proxy": "lower:1", "ALL_PROXY": "upper:2"],
            http: "lower:1", https: "lower:1"),
        Case(
            name: "a scheme's own variable wins over all_proxy",
            environment: ["http_proxy": "plain:1", "https_proxy": "tls:2", "all_proxy": "all:3"],
            http: "plain:1", https: "tls:2"),
        Case(
            name: "an empty value counts as unset", environment: ["http_proxy": "", "all_proxy": "all:1"],
            http: "all:1", https: "all:1"),
        Case(name: "no port means 1080", environment: ["http_proxy": "proxy"], http: "proxy:1080", https: nil),
        Case(
            name: "an https:// proxy without a port means 443", environment: ["HTTPS_PROXY": "https://tls-proxy"],
            http: nil, https: "tls-proxy:443"),
        Case(
            name: "NO_PROXY * disables proxying", environment: ["all_proxy": "all:1", "NO_PROXY": "*"],
            http: nil, https: nil),
        Case(
            name: "no_proxy domain matches the domain itself",
            environment: ["all_proxy": "all:1", "no_proxy": "example.com"], http: nil, https: nil),
        Case(
            name: "no_proxy domain matches a subdomain",
            environment: ["all_proxy": "all:1", "no_proxy": "example.com"],
            host: "api.example.com", http: nil, https: nil),
        Case(
            name: "no_proxy leading dot matches the domain",
            environment: ["all_proxy": "all:1", "no_proxy": ".example.com"], http: nil, https: nil),
        Case(
            name: "no_proxy is no substring match", environment: ["all_proxy": "all:1", "no_proxy": "example.com"],
            host: "badexample.com", http: "all:1", https: "all:1"),
        Case(
            name: "no_proxy wins over NO_PROXY",
            environment: ["all_proxy": "all:1", "no_proxy": "other.org", "NO_PROXY": "*"],
            http: "all:1", https: "all:1"),
        Case(
            name: "no_proxy list with spaces and ports",
            environment: ["all_proxy": "all:1", "no_proxy": "localhost, example.com:8080 ,intranet"],
            http: nil, https: nil),
        Case(
            name: "no_proxy IPv4 address", environment: ["all_proxy": "all:1", "no_proxy": "10.1.2.3"],
            host: "10.1.2.3", http: nil, https: nil),
        Case(
            name: "no_proxy IPv4 address is not a prefix", environment: ["all_proxy": "all:1", "no_proxy": "10.1.2.3"],
            host: "10.1.2.30", http: "all:1", https: "all:1"),
        Case(
            name: "no_proxy CIDR", environment: ["all_proxy": "all:1", "no_proxy": "192.168.0.0/16"],
            host: "192.168.44.7", http: nil, https: nil),
        Case(
            name: "no_proxy CIDR outside", environment: ["all_proxy": "all:1", "no_proxy": "192.168.0.0/16"],
            host: "192.169.0.1", http: "all:1", https: "all:1"),
        Case(
            name: "no_proxy IPv6 in brackets", environment: ["all_proxy": "all:1", "no_proxy": "[::1]"],
            host: "::1", http: nil, https: nil),
        Case(
            name: "no_proxy IPv6 CIDR", environment: ["all_proxy": "all:1", "no_proxy": "fd00::/8"],
            host: "[fd12::5]", http: nil, https: nil),
        Case(
            name: "no_proxy names never match an address",
            environment: ["all_proxy": "all:1", "no_proxy": "localhost"],
            host: "127.0.0.1", http: "all:1", https: "all:1"),
    ]

    @Test(arguments: cases) func curlRules(_ row: Case) throws {
        let rules = try ProxyRules(environment: row.environment)
        #expect(rules.proxy(forScheme: "http", host: row.host).map { "\($0.host):\($0.port)" } == row.http)
        #expect(rules.proxy(forScheme: "https", host: row.host).map { "\($0.host):\($0.port)" } == row.https)
    }

    @Test func credentialsInTheVariableArePercentDecoded() throws {
        let rules = try ProxyRules(environment: ["https_proxy": "http://al%40ice:p%3Ass@proxy.local:3128/"])
        let proxy = try #require(rules.https)
        #expect(proxy.credentials == ProxyCredentials(username: "al@ice", password: "p:ss"))
        #expect(proxy.host == "proxy.local" && proxy.port == 3128)
    }

    @Test func aSocksProxyInAllProxyServesBothSchemes() throws {
        let rules = try ProxyRules(environment: ["ALL_PROXY": "socks5h://user:secret@tor:9050"])
        let expected = ProxyConfiguration(
            .socks5h, host: "tor", port: 9050, credentials: ProxyCredentials(username: "user", password: "secret"))
        #expect(rules.http == expected && rules.https == expected)
    }

    @Test func anUnsupportedSchemeIsAClearErrorNamingTheVariable() {
        #expect(
            throws: ProxyConfigurationError.environmentVariable(
                name: "ALL_PROXY", error: .unsupportedScheme("socks", url: "socks://user:***@tor:9050"))
        ) {
            try ProxyRules(environment: ["ALL_PROXY": "socks://user:secret@tor:9050"])
        }
    }

    @Test func anUnusedBadVariableDoesNotMatter() throws {
        let rules = try ProxyRules(
            environment: ["http_proxy": "a:1", "https_proxy": "b:2", "all_proxy": "ftp://tor:9050"])
        #expect(rules.http?.host == "a" && rules.https?.host == "b")
    }

    @Test func theErrorNeverShowsThePassword() {
        do {
            _ = try ProxyRules(environment: ["http_proxy": "http://bob:hunter2@proxy:99999"])
            Issue.record("a bad port was accepted")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.description.contains("http_proxy"))
        }
    }

    // MARK: - What a Session makes of its setting

    @Test func aSessionSettingResolvesToRulesOrDirect() throws {
        let unusable = ["all_proxy": "ftp://tor:9050"]
        #expect(try ProxySetting.none.resolved(environment: unusable).get() == nil)
        #expect(try ProxySetting.environment.resolved(environment: [:]).get() == nil)
        #expect(try ProxySetting.environment.resolved(environment: ["NO_PROXY": "*"]).get() == nil)
        #expect(try ProxySetting.rules(ProxyRules()).resolved(environment: unusable).get() == nil)
        let explicit = ProxySetting.proxy(ProxyConfiguration(host: "p", port: 1), noProxy: NoProxyList("a.b"))
        let rules = try #require(try explicit.resolved(environment: unusable).get())
        #expect(rules.http?.host == "p" && rules.https?.host == "p" && rules.noProxy.matches(host: "x.a.b"))
        let fromEnvironment = try #require(
            try ProxySetting.environment.resolved(environment: ["https_proxy": "q:2"]).get())
        #expect(fromEnvironment.http == nil && fromEnvironment.https?.port == 2)
        guard
            case .failure(.environmentVariable(name: "all_proxy", _)) = ProxySetting.environment.resolved(
                environment: unusable)
        else {
            Issue.record("an ftp all_proxy resolved")
            return
        }
    }
}
