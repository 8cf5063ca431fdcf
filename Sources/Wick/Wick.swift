// The Wick module: the public API. It re-exports the shared vocabulary (HTTPMethod,
// HTTPHeaders, HTTPStatus, Deadline) so that `import Wick` is all a user writes.
@_exported public import WickCore
// WickTLS too: `ServerTrustManager`, the trust evaluators, `Certificate` and `TrustRoots` are
// part of `Session`'s API.
@_exported public import WickTLS
