// Answering a 401 challenge with a credential: the Authorization field for Basic (RFC 7617).
import FoundationEssentials

/// Builds the `Authorization` field that answers a `401` response's `WWW-Authenticate`
/// challenge with a credential (`Request.authenticate`).
enum HTTPChallengeResponder {
    /// The field answering the first challenge Wick can answer, or nil when there is none (no
    /// `WWW-Authenticate`, or only schemes Wick does not speak).
    static func authorization(
        answering response: HTTPResponse, to request: HTTPRequest, with credential: HTTPCredential
    ) -> HTTPHeader? {
        let offersBasic = response.headers.values(for: "WWW-Authenticate").contains { value in
            value.split(separator: " ", maxSplits: 1).first.map { String($0).equalsIgnoringASCIICase("basic") } ?? false
        }
        guard offersBasic else { return nil }
        let token = Data("\(credential.user):\(credential.password)".utf8).base64EncodedString()
        return HTTPHeader(name: "Authorization", value: "Basic \(token)")
    }
}
