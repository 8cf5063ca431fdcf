// Answering a 401 challenge with a credential: the Authorization field for Digest or Basic.
import FoundationEssentials
import WickCore

/// Builds the `Authorization` field that answers a `401` response's `WWW-Authenticate`
/// challenges with a credential (`Request.authenticate`).
///
/// Choice (RFC 7616 §3.7, RFC 9110 §11.6.1): every challenge of every `WWW-Authenticate` line
/// is parsed (`HTTPAuthenticationChallenge`; a malformed line is ignored); of the Digest
/// challenges Wick can answer, the strongest algorithm wins (SHA-256 over MD5, the first
/// offered on a tie); Basic is used only when no Digest challenge can be answered. Other
/// schemes (Bearer, Negotiate) are never answered with a password.
enum HTTPChallengeResponder {
    /// The field answering the best challenge Wick can answer, or nil when there is none.
    static func authorization(
        answering response: HTTPResponse, to request: HTTPRequest, with credential: HTTPCredential
    ) -> HTTPHeader? {
        authorization(
            answering: response, to: request, with: credential, clientNonce: DigestAuthorization.randomClientNonce())
    }

    /// The same, with a given Digest client nonce (tests fix it).
    static func authorization(
        answering response: HTTPResponse, to request: HTTPRequest, with credential: HTTPCredential,
        clientNonce: String
    ) -> HTTPHeader? {
        let challenges = HTTPAuthenticationChallenge.challenges(in: response.headers)
        var best: DigestAuthorization?
        for challenge in challenges {
            guard let digest = DigestAuthorization(challenge) else { continue }
            if best.map({ digest.algorithm.strength > $0.algorithm.strength }) ?? true { best = digest }
        }
        if let best {
            let value = best.fieldValue(
                method: request.method.rawValue, uri: requestTarget(of: request), credential: credential,
                cnonce: clientNonce)
            return HTTPHeader(name: "Authorization", value: value)
        }
        // RFC 7617 §2: a user-id containing a colon cannot be sent with Basic.
        guard challenges.contains(where: { $0.isScheme("Basic") }), !credential.user.contains(":") else { return nil }
        let token = Data("\(credential.user):\(credential.password)".utf8).base64EncodedString()
        return HTTPHeader(name: "Authorization", value: "Basic \(token)")
    }

    /// Whether `response` says the nonce of the last Digest answer was stale (`stale=true`, RFC
    /// 7616 §3.3): the credential was right and one more answer, with the new nonce, is due.
    static func isStale(_ response: HTTPResponse) -> Bool {
        HTTPAuthenticationChallenge.challenges(in: response.headers).contains { challenge in
            challenge.isScheme("Digest") && challenge.parameter("stale")?.lowercased() == "true"
        }
    }

    /// The request-target the transport sends for `request` (origin-form: path and query), which
    /// Digest's `uri` must repeat byte for byte.
    static func requestTarget(of request: HTTPRequest) -> String {
        let url = request.url
        // `unix:///run/app.sock` names only the socket; its target is `/`.
        if url.scheme?.lowercased() == "unix" { return "/" }
        let path = url.path(percentEncoded: true)
        return (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
    }
}
