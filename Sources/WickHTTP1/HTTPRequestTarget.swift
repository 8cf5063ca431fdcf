// The four request-target forms of RFC 9112 §3.2.

/// Where a request is aimed, in one of the four forms the request line allows (RFC 9112 §3.2).
public enum HTTPRequestTarget: Hashable, Sendable {
    /// `origin-form = absolute-path [ "?" query ]`, e.g. `/search?q=wick`: the usual form.
    case origin(String)
    /// `absolute-form = absolute-URI`, e.g. `http://example.com/search?q=wick`: to a forward proxy.
    case absolute(String)
    /// `authority-form = uri-host ":" port`, e.g. `example.com:443`: only for CONNECT.
    case authority(String)
    /// `asterisk-form = "*"`: only for a server-wide OPTIONS.
    case asterisk

    /// The target as it appears in the request line.
    var text: String {
        switch self {
        case .origin(let text), .absolute(let text), .authority(let text): text
        case .asterisk: "*"
        }
    }
}
