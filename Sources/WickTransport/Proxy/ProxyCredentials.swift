// The user name and password a proxy asks for: HTTP Basic, or a SOCKS5 user name and password.

/// Credentials for a proxy. An HTTP proxy gets them as `Proxy-Authorization: Basic ...` (RFC
/// 7617) on every request that goes through it: each absolute-form request, and each CONNECT.
/// A SOCKS5 proxy gets them in its handshake (RFC 1929), a SOCKS4 proxy the user name as its
/// user id. They never reach the origin: a tunnelled request carries them only in the CONNECT or
/// the handshake, outside TLS.
///
/// Both ways send the password readable by anyone who sees the connection to the proxy (Basic
/// in base64, RFC 1929 in clear text), so use credentials with a proxy on a trusted network.
public struct ProxyCredentials: Hashable, Sendable, CustomStringConvertible {
    /// The user name; RFC 7617 forbids a colon in it (the first colon ends the user name).
    public var username: String
    /// The password.
    public var password: String

    /// Credentials for `username` and `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The `Proxy-Authorization` field value: `Basic ` and the base64 of `username:password`
    /// in UTF-8.
    public var authorizationValue: String {
        "Basic " + Self.base64(Array("\(username):\(password)".utf8))
    }

    /// `ProxyCredentials(user: alice)`: the password is never printed.
    public var description: String { "ProxyCredentials(user: \(username))" }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// RFC 4648 §4 base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let group =
                UInt32(bytes[index]) << 16 | (count > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (count > 2 ? UInt32(bytes[index + 2]) : 0)
            for position in 0..<4 {
                output.append(
                    position <= count ? alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
