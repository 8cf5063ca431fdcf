// RFC 9110's redirect rules: which responses redirect, and the request that follows one.
import FoundationEssentials

/// Builds the request that follows a redirect (RFC 9110 §15.4), before any `RedirectHandler`
/// sees it:
/// - 301, 302, 303, 307 and 308 with a `Location` redirect; other statuses (300, 304) do not.
/// - 303 turns any method but HEAD into GET; 301 and 302 turn POST into GET (what every browser
///   and curl do, and what §15.4.2 allows); 307 and 308 keep the method and the body.
/// - When the method becomes GET the body goes, with the fields that described it
///   (`Content-Type`, `Content-Length`, `Content-Encoding`, `Content-Language`,
///   `Content-Location`, `Transfer-Encoding`).
/// - A relative `Location` is resolved against the request's URL; a `Location` without a
///   fragment keeps the request's fragment (§10.2.2).
/// - Across origins (scheme, host or port differ) `Authorization`, `Cookie` and
///   `Proxy-Authorization` are dropped, so credentials never follow a redirect to another
///   server (curl's CVE-2018-1000007 and CVE-2022-27776).
/// - https to http is refused unless allowed, as is any scheme but http and https.
enum RedirectRules {
    /// What a response means for the next request.
    enum Step {
        /// Not a redirect: the response is final.
        case notARedirect
        /// A redirect Wick will not follow, for the reason given.
        case refused(SessionTaskFailure)
        /// A redirect to this request.
        case follow(HTTPRequest)
    }

    /// The fields that describe a body, dropped with it.
    static let bodyFields = [
        "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
        "Transfer-Encoding",
    ]
    /// The fields that carry credentials, dropped across origins.
    static let credentialFields = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// The step after `response` to `request`.
    /// - Parameter allowsInsecureRedirects: follow https → http.
    /// - Parameter hsts: the known HSTS hosts: an http `Location` to one of them becomes https
    ///   before anything else is decided (RFC 6797 §8.3), so it is never an insecure redirect.
    static func nextRequest(
        after request: HTTPRequest, response: HTTPResponse, allowsInsecureRedirects: Bool, hsts: (any HSTSStorage)? = nil
    ) -> Step {
        guard [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.headers.value(for: "Location")
        else { return .notARedirect }
        guard var resolved = URL(string: location, relativeTo: request.url)?.absoluteURL,
            var scheme = resolved.scheme?.lowercased(), resolved.host() != nil
        else { return .refused(.invalidRedirect(location: location, reason: "the Location is not a usable URL")) }
        if let hsts, request.unixSocketPath == nil, let upgraded = HSTSUpgrade.upgraded(resolved, storage: hsts, now: Date()) {
            resolved = upgraded
            scheme = "https"
        }
        guard scheme == "http" || scheme == "https" else {
            return .refused(.invalidRedirect(location: location, reason: "redirects go only to http and https"))
        }
        if scheme == "http", request.url.scheme?.lowercased() == "https", !allowsInsecureRedirects {
            return .refused(
                .invalidRedirect(location: location, reason: "a redirect from https to http is refused by default"))
        }
        var next = request
        next.url = keepingFragment(of: request.url, in: resolved)
        let becomesGet =
            (response.statusCode == 303 && request.method != .head)
            || ((response.statusCode == 301 || response.statusCode == 302) && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            next.carriesUpload = false
            for name in bodyFields { next.headers.remove(name: name) }
        }
        if !sameOrigin(request.url, next.url) {
            for name in credentialFields { next.headers.remove(name: name) }
        }
        // A Unix-socket override names a socket on this machine, not the redirect's host.
        if !sameOrigin(request.url, next.url) { next.unixSocketPath = nil }
        return .follow(next)
    }

    /// `resolved`, with `original`'s fragment when it has none of its own.
    private static func keepingFragment(of original: URL, in resolved: URL) -> URL {
        guard resolved.fragment() == nil, let fragment = original.fragment(percentEncoded: true),
            var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false)
        else { return resolved }
        components.percentEncodedFragment = fragment
        return components.url ?? resolved
    }

    /// Same scheme, host (case-insensitive) and port (defaults filled in).
    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func key(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host()?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return key(lhs) == key(rhs)
    }
}
