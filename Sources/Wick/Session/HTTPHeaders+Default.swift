// The header fields every Session request carries unless overridden.
extension HTTPHeaders {
    /// `Accept-Language: en;q=1.0` and `User-Agent: Wick/0.1 (Linux)`. `Accept-Encoding` is not
    /// here: `Session` adds `HTTPHeader.defaultAcceptEncoding` to requests without one while
    /// `Session.Configuration.automaticallyDecodesResponseBodies` is on (the default), so that
    /// turning decoding off also stops asking for coded bodies.
    public static var `default`: HTTPHeaders {
        [.defaultAcceptLanguage, .defaultUserAgent]
    }
}

extension HTTPHeader {
    /// `Accept-Language: en;q=1.0`. Linux daemons have no user locale to ask, so this is fixed.
    public static var defaultAcceptLanguage: HTTPHeader { HTTPHeader(name: "Accept-Language", value: "en;q=1.0") }
    /// `Accept-Encoding: gzip, deflate`: the codings `Session` decodes (see
    /// `Session.Configuration.automaticallyDecodesResponseBodies`).
    public static var defaultAcceptEncoding: HTTPHeader { HTTPHeader(name: "Accept-Encoding", value: "gzip, deflate") }
    /// `User-Agent: Wick/0.1 (Linux)`.
    public static var defaultUserAgent: HTTPHeader { HTTPHeader(name: "User-Agent", value: "Wick/0.1 (Linux)") }
}
