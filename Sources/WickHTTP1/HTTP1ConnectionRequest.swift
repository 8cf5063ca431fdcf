// What the HTTP/1.1 connection state machine needs to start a request.

/// A request to run on a connection: its head, whether to wait for 100 Continue, and whether to
/// decode the response body.
///
/// The head's `framing` says what body follows: `.none` (no body), `.contentLength(n)` (exactly
/// n bytes offered in parts) or `.chunked` (parts of unknown total length).
public struct HTTP1ConnectionRequest: Sendable {
    /// The head to encode.
    public var head: HTTPRequestHead {
        didSet { hasVettedOriginTargetAndHost = false }
    }
    /// Whether the head's origin-form target and `host` were checked when their destination
    /// was read (`HTTPRequestEncoder.isVettedOrigin(target:host:)`), so that encoding checks
    /// them again only when this is false. Any change to the head clears it.
    package var hasVettedOriginTargetAndHost = false
    /// Send `Expect: 100-continue` and hold the body back until 100 Continue or the driver's
    /// timer (RFC 9110 §10.1.1). Ignored for a request without body bytes.
    public var expectContinue: Bool
    /// Decode a gzip/deflate/br/zstd `Content-Encoding` with these limits; nil leaves the body as sent.
    public var decoding: ContentDecoderLimits?

    /// A request.
    public init(head: HTTPRequestHead, expectContinue: Bool = false, decoding: ContentDecoderLimits? = nil) {
        self.head = head
        self.expectContinue = expectContinue
        self.decoding = decoding
    }

    /// The number of body bytes the framing promises: nil for chunked, 0 for none.
    var declaredBodyLength: Int? {
        switch head.framing {
        case .none: 0
        case .contentLength(let length): length
        case .chunked: nil
        }
    }
}
