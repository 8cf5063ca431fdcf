// Fuzzes the cookie path from a hostile server's bytes: SetCookieParser and CookieDateParser on
// any field, then the in-memory store with tight limits, asked for the cookies of a few URLs.
//
// Input: byte 0 picks the response URL (http or https, a host or a subdomain, a deep path);
// the rest is one or more Set-Cookie field values, one per line. Checks: no trap; an accepted
// cookie keeps §5.6's promises (name and value trimmed, within 4096 bytes, not both empty, no
// control character, no ";" and a name without "="; a lower-case Domain without a leading dot;
// a Path that starts with "/"; attribute values within 1024 bytes); a date parses only to
// 1601-9999; the store never holds more than its limits, and every cookie it sends to a URL
// belongs there (its domain, path and Secure rule).
import CFuzzDriver
import FoundationEssentials
import Wick

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzSetCookieParser) }
}

private let responseURLs = [
    "http://example.com/", "https://www.example.com/a/b/c", "https://example.com/", "http://a.b.example.co.uk/x/",
].map { URL(string: $0)! }
private let requestURLs = [
    "http://example.com/", "https://example.com/a/b/c/d", "https://www.example.com/a", "http://x.a.b.example.co.uk/x/y",
    "https://co.uk/", "http://example.org/",
].map { URL(string: $0)! }
private let earliest = Date(timeIntervalSince1970: -11_644_473_600)  // 1601-01-01
private let latest = Date(timeIntervalSince1970: 253_402_300_800)  // 10000-01-01
private let now = Date(timeIntervalSince1970: 1_800_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSetCookieParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let selector = bytes.first else { return 0 }
    let fields = String(decoding: bytes.dropFirst(), as: UTF8.self).split(separator: "\n").map(String.init)
    for field in fields {
        if let date = CookieDateParser.parse(field) { precondition(date >= earliest && date < latest, "date \(date)") }
        guard let cookie = SetCookieParser.parse(field) else { continue }
        check(cookie, from: field)
    }
    let storage = InMemoryCookieStorage(maximumCookiesPerDomain: 3, maximumCookies: 5)
    storage.storeCookies(from: fields, for: responseURLs[Int(selector) % responseURLs.count], now: now)
    let stored = storage.allCookies(now: now)
    precondition(stored.count <= 5, "\(stored.count) cookies kept")
    precondition(Dictionary(grouping: stored, by: \.domain).values.allSatisfy { $0.count <= 3 }, "a domain over its limit")
    for url in requestURLs {
        for cookie in storage.cookies(for: url, now: now) { checkSent(cookie, to: url) }
    }
    return 0
}

/// §5.6's promises about an accepted field.
private func check(_ cookie: SetCookie, from field: String) {
    let whitespace: Set<UInt8> = [0x20, 0x09]
    for part in [cookie.name, cookie.value] {
        precondition(!part.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "a control character in \(field.debugDescription)")
        precondition(!part.utf8.contains(UInt8(ascii: ";")), "a ';' in \(part.debugDescription)")
        precondition(part.utf8.first.map { !whitespace.contains($0) } ?? true, "untrimmed \(part.debugDescription)")
        precondition(part.utf8.last.map { !whitespace.contains($0) } ?? true, "untrimmed \(part.debugDescription)")
    }
    precondition(!cookie.name.utf8.contains(UInt8(ascii: "=")), "a '=' in the name \(cookie.name.debugDescription)")
    precondition(cookie.name.utf8.count + cookie.value.utf8.count <= SetCookieParser.maximumNameValueBytes, "too long")
    precondition(!(cookie.name.isEmpty && cookie.value.isEmpty), "an empty cookie accepted")
    if let domain = cookie.domain {
        precondition(!domain.isEmpty || field.contains("."), "an empty Domain kept")
        precondition(domain == domain.lowercased(), "Domain not lower-cased: \(domain.debugDescription)")
        precondition(domain.utf8.count <= SetCookieParser.maximumAttributeValueBytes, "a Domain too long")
    }
    if let path = cookie.path {
        // The first byte, as §5.6.4 reads it: `String.hasPrefix` compares grapheme clusters, and
        // "/" followed by a combining mark (U+0746) is one cluster that is not "/".
        precondition(
            path.utf8.first == UInt8(ascii: "/") && path.utf8.count <= SetCookieParser.maximumAttributeValueBytes,
            "bad Path \(path.debugDescription)")
        precondition(cookie.hasPath, "a Path without hasPath")
    }
}

/// What a store may send to `url`: the cookie's own domain rule, path rule and Secure rule.
private func checkSent(_ cookie: Cookie, to url: URL) {
    let host = url.host()!.lowercased()
    let domainMatches =
        host == cookie.domain || (!cookie.isHostOnly && host.hasSuffix("." + cookie.domain))
    precondition(domainMatches, "\(cookie.domain) sent to \(host)")
    precondition(!cookie.isSecure || url.scheme == "https", "a Secure cookie sent over http")
    let path = Array((url.path(percentEncoded: true).isEmpty ? "/" : url.path(percentEncoded: true)).utf8)
    let cookiePath = Array(cookie.path.utf8)
    let pathMatches =
        path == cookiePath
        || (path.starts(with: cookiePath) && (cookiePath.last == UInt8(ascii: "/") || path[cookiePath.count] == UInt8(ascii: "/")))
    precondition(pathMatches, "path \(cookie.path) sent to \(url)")
    precondition(!cookie.isExpired(at: now), "an expired cookie sent")
}
