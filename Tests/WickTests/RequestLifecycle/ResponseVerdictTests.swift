// ResponseVerdict.decide, one table row per case: final, challenge answer, redirect, refusal.
import Foundation
import Testing
import WickCore

@testable import Wick
@testable import WickTransport

@Suite struct ResponseVerdictTests {
    static let credential = HTTPCredential(user: "user", password: "pass")
    /// `user:pass` in Basic's base64.
    static let basicAnswer = "Basic dXNlcjpwYXNz"
    static let digestChallenge = #"Digest realm="r", qop="auth", algorithm=SHA-256, nonce="n1""#
    static let staleDigestChallenge = #"Digest realm="r", qop="auth", algorithm=SHA-256, nonce="n2", stale=true"#

    static func request(_ url: String = "https://a.example/start") -> HTTPRequest {
        HTTPRequest(method: .get, url: URL(string: url)!, headers: ["X-Keep": "yes"], body: nil)
    }

    static func response(_ status: Int, _ fields: [(String, String)] = []) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        return HTTPResponse(status: HTTPStatus(rawValue: status), headers: headers, version: .http1_1)
    }

    static func progress(redirects: Int = 0, challengeAnswers: Int = 0) -> AttemptProgress {
        var progress = AttemptProgress(deadline: .distantFuture)
        progress.redirects = redirects
        progress.challengeAnswers = challengeAnswers
        return progress
    }

    /// The verdict on `head`, named: `final`, `answer <Authorization>`, `redirect <url>[ asks]`,
    /// `tooManyRedirects <limit>`, `invalidRedirect <location>`.
    static func verdict(
        _ head: HTTPResponse, to request: HTTPRequest = request(), progress: AttemptProgress = progress(),
        credential: HTTPCredential? = nil, redirects: any RedirectHandler = Redirector.follow,
        configure: (inout Session.Configuration) -> Void = { _ in }
    ) -> String {
        var configuration = Session.Configuration()
        configure(&configuration)
        let verdict = ResponseVerdict.decide(
            request: request, head: head, progress: progress, credential: credential, redirects: redirects,
            configuration: configuration)
        switch verdict {
        case .final:
            #expect(verdict.deliversBody)
            return "final"
        case .answerChallenge(let answer):
            #expect(!verdict.deliversBody)
            #expect(answer.url == request.url && answer.headers.value(for: "X-Keep") == "yes")
            return "answer \(answer.headers.value(for: "Authorization") ?? "-")"
        case .redirect(let next, let asksHandler):
            #expect(!verdict.deliversBody)
            return "redirect \(next.url.absoluteString)" + (asksHandler ? " asks" : "")
        case .refused(.tooManyRedirects(let limit)):
            #expect(!verdict.deliversBody)
            return "tooManyRedirects \(limit)"
        case .refused(.invalidRedirect(let location, _)):
            return "invalidRedirect \(location)"
        case .refused(let other):
            return "refused \(other)"
        }
    }

    /// A handler of the user's, not a `Redirector`: it is always asked.
    struct UsersHandler: RedirectHandler {
        func request(
            _ request: Request, willBeRedirectedTo newRequest: HTTPRequest, for response: HTTPResponse,
            completion: @escaping @Sendable (HTTPRequest?) -> Void
        ) {
            completion(newRequest)
        }
    }

    static let redirectStatuses = [301, 302, 303, 307, 308]

    // MARK: - Final

    @Test("A 200 is final, with or without a credential", arguments: [false, true])
    func okIsFinal(withCredential: Bool) {
        #expect(Self.verdict(Self.response(200), credential: withCredential ? Self.credential : nil) == "final")
    }

    @Test("Statuses that are not redirects are final even with a Location (300, 304, 201)", arguments: [300, 304, 201])
    func otherStatusesWithLocationAreFinal(status: Int) {
        #expect(Self.verdict(Self.response(status, [("Location", "/next")])) == "final")
    }

    // MARK: - Redirects

    @Test("A redirect with a Location is followed without asking under Redirector.follow", arguments: redirectStatuses)
    func redirectFollowed(status: Int) {
        #expect(
            Self.verdict(Self.response(status, [("Location", "/next")]), redirects: Redirector.follow)
                == "redirect https://a.example/next")
    }

    @Test("A redirect is final under Redirector.doNotFollow", arguments: redirectStatuses)
    func redirectNotFollowed(status: Int) {
        #expect(
            Self.verdict(Self.response(status, [("Location", "/next")]), redirects: Redirector.doNotFollow) == "final")
    }

    @Test(
        "A redirect asks the handler under a .modify Redirector and under a handler of the user's",
        arguments: redirectStatuses)
    func redirectAsksHandler(status: Int) {
        let head = Self.response(status, [("Location", "https://b.example/elsewhere")])
        let modify = Redirector(behavior: .modify { _, next, _ in next })
        #expect(Self.verdict(head, redirects: modify) == "redirect https://b.example/elsewhere asks")
        #expect(Self.verdict(head, redirects: UsersHandler()) == "redirect https://b.example/elsewhere asks")
    }

    @Test("A redirect status without a Location is final", arguments: redirectStatuses)
    func redirectWithoutLocationIsFinal(status: Int) {
        #expect(Self.verdict(Self.response(status)) == "final")
    }

    @Test("https to http is refused unless allowsInsecureRedirects")
    func insecureRedirect() {
        let head = Self.response(302, [("Location", "http://a.example/plain")])
        #expect(Self.verdict(head) == "invalidRedirect http://a.example/plain")
        #expect(Self.verdict(head) { $0.allowsInsecureRedirects = true } == "redirect http://a.example/plain")
        // http to https, and http to http, need no permission.
        let plain = Self.request("http://a.example/start")
        #expect(Self.verdict(head, to: plain) == "redirect http://a.example/plain")
        #expect(
            Self.verdict(Self.response(302, [("Location", "https://a.example/tls")]), to: plain)
                == "redirect https://a.example/tls")
    }

    @Test("The insecure refusal comes before the handler: even a .doNotFollow Redirector sees a refusal")
    func insecureRefusedBeforeHandler() {
        let head = Self.response(301, [("Location", "http://a.example/plain")])
        #expect(Self.verdict(head, redirects: Redirector.doNotFollow) == "invalidRedirect http://a.example/plain")
    }

    @Test("A Location that is not a usable http(s) URL is refused")
    func unusableLocation() {
        #expect(
            Self.verdict(Self.response(302, [("Location", "ftp://a.example/f")])) == "invalidRedirect ftp://a.example/f"
        )
        #expect(Self.verdict(Self.response(302, [("Location", "http://")])) == "invalidRedirect http://")
    }

    @Test("Redirects up to the limit are followed; at the limit the next is refused (N and N+1)")
    func redirectLimit() {
        let head = Self.response(307, [("Location", "/again")])
        let limited: (inout Session.Configuration) -> Void = { $0.maximumRedirects = 3 }
        #expect(
            Self.verdict(head, progress: Self.progress(redirects: 2), configure: limited)
                == "redirect https://a.example/again")
        #expect(Self.verdict(head, progress: Self.progress(redirects: 3), configure: limited) == "tooManyRedirects 3")
        #expect(Self.verdict(head, progress: Self.progress(redirects: 9)) == "redirect https://a.example/again")
        #expect(Self.verdict(head, progress: Self.progress(redirects: 10)) == "tooManyRedirects 10")
        #expect(Self.verdict(head) { $0.maximumRedirects = 0 } == "tooManyRedirects 0")
        // The limit counts before the handler: a handler that would stop is never reached.
        #expect(
            Self.verdict(
                head, progress: Self.progress(redirects: 3), redirects: Redirector.doNotFollow, configure: limited)
                == "tooManyRedirects 3")
    }

    // MARK: - Challenges

    @Test("A 401 with a credential and a Basic challenge is answered with Authorization")
    func basicChallengeAnswered() {
        let head = Self.response(401, [("WWW-Authenticate", #"Basic realm="r""#)])
        #expect(Self.verdict(head, credential: Self.credential) == "answer \(Self.basicAnswer)")
    }

    @Test("A Digest challenge is answered with Digest, not Basic")
    func digestChallengeAnswered() {
        let head = Self.response(
            401, [("WWW-Authenticate", #"Basic realm="r""#), ("WWW-Authenticate", Self.digestChallenge)])
        #expect(Self.verdict(head, credential: Self.credential).hasPrefix(#"answer Digest username="user""#))
    }

    @Test("A 401 without a credential is final")
    func challengeWithoutCredentialIsFinal() {
        #expect(Self.verdict(Self.response(401, [("WWW-Authenticate", #"Basic realm="r""#)])) == "final")
    }

    @Test("A 401 whose challenges Wick cannot answer with a password is final (Bearer, none, a user with a colon)")
    func unanswerableChallengeIsFinal() {
        #expect(
            Self.verdict(Self.response(401, [("WWW-Authenticate", "Bearer")]), credential: Self.credential) == "final")
        #expect(Self.verdict(Self.response(401), credential: Self.credential) == "final")
        let colon = HTTPCredential(user: "a:b", password: "p")
        #expect(
            Self.verdict(Self.response(401, [("WWW-Authenticate", #"Basic realm="r""#)]), credential: colon) == "final")
    }

    @Test("The 401 to an answer is final: one answer per attempt")
    func secondChallengeIsFinal() {
        let basic = Self.response(401, [("WWW-Authenticate", #"Basic realm="r""#)])
        #expect(
            Self.verdict(basic, progress: Self.progress(challengeAnswers: 1), credential: Self.credential) == "final")
        let digest = Self.response(401, [("WWW-Authenticate", Self.digestChallenge)])
        #expect(
            Self.verdict(digest, progress: Self.progress(challengeAnswers: 1), credential: Self.credential) == "final")
    }

    @Test("A stale Digest nonce earns one more answer, and only one")
    func staleNonceAnsweredOnce() {
        let stale = Self.response(401, [("WWW-Authenticate", Self.staleDigestChallenge)])
        #expect(HTTPChallengeResponder.isStale(stale))
        let second = Self.verdict(stale, progress: Self.progress(challengeAnswers: 1), credential: Self.credential)
        #expect(second.hasPrefix("answer Digest ") && second.contains(#"nonce="n2""#))
        #expect(
            Self.verdict(stale, progress: Self.progress(challengeAnswers: 2), credential: Self.credential) == "final")
        // The first answer needs no staleness.
        #expect(Self.verdict(stale, credential: Self.credential).hasPrefix("answer Digest "))
    }

    @Test("stale=true on a Basic challenge is not a stale Digest nonce")
    func staleBasicIsNotStale() {
        let head = Self.response(401, [("WWW-Authenticate", #"Basic realm="r", stale=true"#)])
        #expect(!HTTPChallengeResponder.isStale(head))
        #expect(
            Self.verdict(head, progress: Self.progress(challengeAnswers: 1), credential: Self.credential) == "final")
    }

    @Test("A 401 with a Location is a challenge, never a redirect; without a credential it is final")
    func challengeIsNotARedirect() {
        let head = Self.response(401, [("WWW-Authenticate", #"Basic realm="r""#), ("Location", "/next")])
        #expect(Self.verdict(head, credential: Self.credential) == "answer \(Self.basicAnswer)")
        #expect(Self.verdict(head) == "final")
    }
}
