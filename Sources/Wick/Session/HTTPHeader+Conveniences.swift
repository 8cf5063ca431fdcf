// Alamofire's named header fields: .accept, .authorization(bearerToken:), .contentType...
import FoundationEssentials

extension HTTPHeader {
    /// `Accept: value`, e.g. `application/json`; `validate()` checks the response against it.
    public static func accept(_ value: String) -> HTTPHeader { HTTPHeader(name: "Accept", value: value) }

    /// `Accept-Charset: value`.
    public static func acceptCharset(_ value: String) -> HTTPHeader { HTTPHeader(name: "Accept-Charset", value: value) }

    /// `Accept-Language: value`, e.g. `fr;q=1.0, en;q=0.5`.
    public static func acceptLanguage(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Language", value: value)
    }

    /// `Accept-Encoding: value`. Session decodes gzip, deflate, br and zstd; a request carrying its
    /// own `Accept-Encoding` gets the body as the server coded it unless that is one of them.
    public static func acceptEncoding(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Encoding", value: value)
    }

    /// `Authorization: Basic <base64 of username:password>` (RFC 7617, UTF-8), sent
    /// preemptively; `Request.authenticate(username:password:)` answers a challenge instead.
    public static func authorization(username: String, password: String) -> HTTPHeader {
        let credential = Data("\(username):\(password)".utf8).base64EncodedString()
        return authorization("Basic \(credential)")
    }

    /// `Authorization: Bearer <bearerToken>` (RFC 6750).
    public static func authorization(bearerToken: String) -> HTTPHeader { authorization("Bearer \(bearerToken)") }

    /// `Authorization: value`, for other schemes.
    public static func authorization(_ value: String) -> HTTPHeader { HTTPHeader(name: "Authorization", value: value) }

    /// `Content-Disposition: value`.
    public static func contentDisposition(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Disposition", value: value)
    }

    /// `Content-Encoding: value`, for a body the caller coded (Wick does not compress it).
    public static func contentEncoding(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Encoding", value: value)
    }

    /// `Content-Type: value`, e.g. `application/json`.
    public static func contentType(_ value: String) -> HTTPHeader { HTTPHeader(name: "Content-Type", value: value) }

    /// `User-Agent: value`.
    public static func userAgent(_ value: String) -> HTTPHeader { HTTPHeader(name: "User-Agent", value: value) }
}
