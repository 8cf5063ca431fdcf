// A user name and password that answer 401 challenges (Request.authenticate).
/// A user name and password for HTTP authentication (`Request.authenticate(with:)`): answers a
/// server's `401` challenge with Basic or Digest (RFC 7617, RFC 7616).
public struct HTTPCredential: Sendable, Equatable {
    /// The user name; Basic authentication forbids a colon in it (RFC 7617 §2).
    public var user: String
    /// The password.
    public var password: String

    /// A credential.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
