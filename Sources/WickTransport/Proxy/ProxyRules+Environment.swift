// Proxy rules from environment variables, with curl's semantics.

extension ProxyRules {
    /// Rules read from environment variables the way curl reads them:
    /// - `http` requests use `http_proxy`, **lower-case only**: `HTTP_PROXY` is ignored, because
    ///   CGI servers put a request's `Proxy:` header into `HTTP_PROXY` ("httpoxy").
    /// - `https` requests use `https_proxy`, else `HTTPS_PROXY`.
    /// - Either falls back to `all_proxy`, else `ALL_PROXY`.
    /// - `no_proxy`, else `NO_PROXY`, lists the hosts that go direct (`NoProxyList`).
    ///
    /// An empty value counts as unset. Values are proxy URLs as `ProxyConfiguration.init(url:)`
    /// reads them (no scheme means `http://`, port 1080 by default, 443 for `https://`,
    /// credentials percent-decoded). An `https://` proxy is trusted under the system store;
    /// set `tlsTrust` on `http` and `https` to trust another CA.
    ///
    /// Pass `ProcessInfo.processInfo.environment`, or a dictionary in tests.
    /// - Throws: `ProxyConfigurationError.environmentVariable` naming the first variable in use
    ///   whose URL is unusable (an unsupported scheme, a bad port): requests must not quietly go direct
    ///   when the environment asks for a proxy Wick cannot speak to.
    public init(environment: [String: String]) throws(ProxyConfigurationError) {
        /// The first of `names` that is set and not empty.
        func value(_ names: [String]) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name], !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func proxy(_ names: String...) throws(ProxyConfigurationError) -> ProxyConfiguration? {
            guard let found = value(names) else { return nil }
            do throws(ProxyConfigurationError) {
                return try ProxyConfiguration(url: found.value)
            } catch {
                throw .environmentVariable(name: found.name, error: error)
            }
        }
        self.init(
            http: try proxy("http_proxy", "all_proxy", "ALL_PROXY"),
            https: try proxy("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"),
            noProxy: NoProxyList(value(["no_proxy", "NO_PROXY"])?.value ?? ""))
    }
}
