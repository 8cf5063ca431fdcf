// Everything the request encoder needs to write a request head.
public import WickCore

/// A request's method, target, Host, header fields and body framing, ready to be encoded.
///
/// Nothing is validated here; `HTTPRequestEncoder.encodeHead` refuses bad bytes with an error.
public struct HTTPRequestHead: Hashable, Sendable {
    /// The method token.
    public var method: HTTPMethod
    /// The request-target, in the form the method and route need.
    public var target: HTTPRequestTarget
    /// The `Host` field value (RFC 9110 §7.2), e.g. `example.com:8080`; a `Host` field in
    /// `headers` is used instead when present.
    public var host: String
    /// The caller's header fields, in order. `Content-Length` and `Transfer-Encoding` may appear
    /// only if they agree with `framing`; they are then written once, by the encoder.
    public var headers: HTTPHeaders
    /// How the body is framed.
    public var framing: HTTPRequestFraming

    /// A request head.
    public init(
        method: HTTPMethod,
        target: HTTPRequestTarget,
        host: String,
        headers: HTTPHeaders = HTTPHeaders(),
        framing: HTTPRequestFraming = .none
    ) {
        self.method = method
        self.target = target
        self.host = host
        self.headers = headers
        self.framing = framing
    }
}
