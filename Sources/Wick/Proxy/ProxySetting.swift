// A Session's proxy choice: curl's environment variables (the default), none, or given rules.

/// Where a `Session`'s requests find their proxy (`Session.Configuration.proxy`).
///
/// The default is `.environment`, as in curl (async-http-client ignores the environment):
/// a process run with `https_proxy=...` sends through that proxy without code changes, and
/// `.none` opts out. Requests over a Unix domain socket never use a proxy.
public enum ProxySetting: Hashable, Sendable {
    /// `http_proxy`, `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY` and
    /// `no_proxy`/`NO_PROXY`, read once when the Session is created, with curl's rules
    /// (`ProxyRules.init(environment:)`; `HTTP_PROXY` is ignored). If a variable in use is
    /// unusable (an unsupported scheme, a bad URL), requests fail with
    /// `WickError.invalidProxyConfiguration` instead of going direct.
    case environment
    /// Every request goes direct; the environment is not read.
    case none
    /// These rules, whatever the environment says.
    case rules(ProxyRules)

    /// Every http and https request through `proxy`, except hosts in `noProxy`.
    public static func proxy(_ proxy: ProxyConfiguration, noProxy: NoProxyList = .empty) -> ProxySetting {
        .rules(ProxyRules(http: proxy, https: proxy, noProxy: noProxy))
    }
}
