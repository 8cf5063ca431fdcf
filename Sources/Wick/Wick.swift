// The Wick module: the public API. It re-exports the shared vocabulary (HTTPMethod,
// HTTPHeaders, HTTPStatus, Deadline) so that `import Wick` is all a user writes.
@_exported public import WickCore
