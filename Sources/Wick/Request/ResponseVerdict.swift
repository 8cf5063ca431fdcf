// What the run does with a response: end the attempt, answer a challenge, or follow a redirect.

/// The one decision on a response, made once per exchange (`RequestStateMachine`, rule 6) and
/// read by everyone who needs it: the body sink at the head (stream the body or collect it), the
/// run at the end (what to send next), and a download's finisher (through what the sink did).
enum ResponseVerdict: Sendable {
    /// The attempt's last response: validate it and end the attempt.
    case final
    /// A `401` the request answers with this request (its credential in `Authorization`).
    case answerChallenge(HTTPRequest)
    /// A redirect to this request, built by RFC 9110's rules; `asksHandler` when a
    /// `RedirectHandler` other than `Redirector.follow` decides whether and where to go.
    case redirect(HTTPRequest, asksHandler: Bool)
    /// A redirect that cannot be followed (insecure, unusable, past the limit): the attempt fails.
    case refused(SessionTaskFailure)

    /// Whether the response's body is the one the request delivers (a sink streams it), rather
    /// than a body collected for a step that may follow (its small body is not the payload).
    var deliversBody: Bool {
        if case .final = self { true } else { false }
    }

    /// Whether a response with `status` can be anything but `final`: a redirect status, or a
    /// `401` a credential may answer. For every other status the verdict is `final` without
    /// reading the request's credential or redirect handler.
    static func mayFollow(_ status: HTTPStatus) -> Bool {
        switch status.rawValue {
        case 301, 302, 303, 307, 308, 401: true
        default: false
        }
    }

    /// The verdict on `head`, the response to `request` in the attempt `progress`.
    /// - Parameters:
    ///   - credential: the request's credential, which answers one `401` (two after a stale
    ///     Digest nonce).
    ///   - redirects: the request's redirect handler, or the session's.
    static func decide(
        request: HTTPRequest, head: HTTPResponse, progress: AttemptProgress, credential: HTTPCredential?,
        redirects: any RedirectHandler, configuration: Session.Configuration
    ) -> ResponseVerdict {
        if head.statusCode == 401, let credential,
            progress.challengeAnswers == 0 || (progress.challengeAnswers == 1 && HTTPChallengeResponder.isStale(head)),
            let authorization = HTTPChallengeResponder.authorization(answering: head, to: request, with: credential)
        {
            var answer = request
            answer.headers.update(authorization)
            return .answerChallenge(answer)
        }
        switch RedirectRules.nextRequest(
            after: request, response: head, allowsInsecureRedirects: configuration.allowsInsecureRedirects,
            hsts: configuration.hstsStorage)
        {
        case .notARedirect:
            return .final
        case .refused(let failure):
            return .refused(failure)
        case .follow(let next):
            guard progress.redirects < configuration.maximumRedirects else {
                return .refused(.tooManyRedirects(limit: configuration.maximumRedirects))
            }
            if let redirector = redirects as? Redirector {
                switch redirector.behavior {
                case .follow: return .redirect(next, asksHandler: false)
                case .doNotFollow: return .final
                case .modify: break
                }
            }
            return .redirect(next, asksHandler: true)
        }
    }
}
