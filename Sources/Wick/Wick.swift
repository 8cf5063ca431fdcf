// The Wick module: the public API. It re-exports the shared vocabulary (HTTPMethod,
// HTTPHeaders, HTTPStatus, Deadline) so that `import Wick` is all a user writes.
@_exported public import WickCore
// WickTLS too: `ServerTrustManager`, the trust evaluators, `Certificate` and `TrustRoots` are
// part of `Session`'s API.
@_exported public import WickTLS
// And WickTransport, for the proxy types of `Session.Configuration.proxy` (`ProxyConfiguration`,
// `ProxyScheme`, `ProxyCredentials`, `ProxyTLSTrust`, `ProxyRules`, `NoProxyList`,
// `ProxyConfigurationError`): they are the only
// public symbols WickTransport has (the rest is `package`, or SPI for benchmarks), so this adds
// nothing else to what `import Wick` gives. Re-exporting keeps one name for each type, as for
// WickCore and WickTLS; typealiases would make two that clash when both modules are imported.
@_exported public import WickTransport
