// `wick-bench cookies`: what the cookie store costs a request: the Cookie field for a host with 50
// stored cookies, and storing a response's Set-Cookie fields.
import Foundation
import Wick

/// The cookie store's work per request, on Wick's default store (`InMemoryCookieStorage`, the
/// public API a `Session` calls): building the `Cookie` field value for a request to a host with
/// 50 stored cookies that all match it (the issue's aim: under 2 µs and at most 2 allocations),
/// the same for a host with none, and storing the `Set-Cookie` fields of a response (one field
/// that replaces a stored cookie; three fields, as a login response sets). The store also holds
/// 100 cookies of 10 other hosts, as a long-lived session's does. Time is fixed (`now`), so no
/// cookie expires while measured.
struct CookieBenchmark {
    /// One workload and its allocations per operation.
    struct Case {
        let label: String
        let key: String
        let workload: Workload
    }

    /// The request's URL: its host has the 50 cookies.
    static let url = URL(string: "https://api.example.com/v1/items?page=2")!
    /// A host with no cookie of its own (its parent domain has none either).
    static let otherURL = URL(string: "https://static.example.net/app.js")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// 50 cookies for `url`: 40 host-only (30 at `/`, 10 at `/v1`) and 10 for the parent domain
    /// `example.com`, names of 7 or 8 bytes and values of 24 to 40; then 10 cookies on each of
    /// 10 other hosts.
    static func filledStore() -> InMemoryCookieStorage {
        let storage = InMemoryCookieStorage()
        for index in 0..<50 {
            let value = String(repeating: "v", count: 24 + index % 17)
            let attributes =
                switch index % 5 {
                case 0: "Domain=example.com; Path=/; Secure"
                case 1: "Path=/v1; Secure; HttpOnly"
                default: "Path=/; Secure; HttpOnly; SameSite=Lax"
                }
            storage.storeCookies(
                from: ["cookie\(index)=\(value); Max-Age=86400; \(attributes)"], for: url,
                now: now.addingTimeInterval(Double(index)))
        }
        for host in 0..<10 {
            let fields = (0..<10).map { "other\($0)=\(String(repeating: "o", count: 30)); Path=/; Max-Age=86400" }
            storage.storeCookies(from: fields, for: URL(string: "https://host\(host).example.org/")!, now: now)
        }
        return storage
    }

    let cases: [Case]
    /// The `Cookie` field's length for `url`, and how many cookies it carries.
    let fieldBytes: Int
    let fieldCookies: Int

    init() {
        let storage = Self.filledStore()
        let field = storage.cookieFieldValue(for: Self.url, now: Self.now) ?? ""
        fieldBytes = field.utf8.count
        fieldCookies = field.split(separator: ";").count
        precondition(fieldCookies == 50, "CookieBenchmark: \(fieldCookies) cookies match, not 50")
        let (url, otherURL, now) = (Self.url, Self.otherURL, Self.now)
        let replacing = ["cookie7=\(String(repeating: "n", count: 32)); Path=/; Secure; HttpOnly; Max-Age=86400"]
        let login = [
            "session=\(String(repeating: "s", count: 40)); Path=/; Secure; HttpOnly; SameSite=Lax",
            "csrf=\(String(repeating: "c", count: 32)); Path=/; Secure; SameSite=Strict",
            "prefs=theme%3Ddark; Domain=example.com; Path=/; Max-Age=31536000",
        ]
        // Requests to one host along many paths, each unlike the one before: the host's rendered
        // cookies are filtered anew for each. Requests that alternate between two hosts with
        // cookies: both stay rendered. Requests to six hosts in turn, more than the jar keeps
        // rendered: each walks the store and renders its host's cookies.
        let pathURLs = (0..<64).map { URL(string: "https://api.example.com/v1/items/\($0)?page=2")! }
        let alternatingURLs = [url, URL(string: "https://host0.example.org/feed")!]
        let manyHostURLs = [url] + (0..<5).map { URL(string: "https://host\($0).example.org/feed")! }
        /// The Cookie field for `urls` in turn, one request each.
        func fieldCase(_ label: String, key: String, _ urls: [URL]) -> Case {
            Case(
                label: label, key: key,
                workload: Workload(name: "cookies.\(key)") { count in
                    var checksum = 0
                    var next = 0  // no division per request: it would weigh on the fastest cases
                    for _ in 0..<count {
                        checksum &+= storage.cookieFieldValue(for: urls[next], now: now)?.utf8.count ?? 0
                        next = next + 1 == urls.count ? 0 : next + 1
                    }
                    return checksum
                })
        }
        cases = [
            fieldCase(
                "Cookie field, 50 cookies on the host, the same URL again (the last field given again)",
                key: "header.50",
                [url]),
            fieldCase(
                "Cookie field, 50 cookies on the host, a new path each request (the host's cookies filtered)",
                key: "header.50.paths", pathURLs),
            fieldCase(
                "Cookie field, 50 cookies on the host, every other request to another host (both kept rendered)",
                key: "header.50.hosts", alternatingURLs),
            fieldCase(
                "Cookie field, 50 cookies on the host, six hosts in turn (the store walked every request)",
                key: "header.50.walk", manyHostURLs),
            fieldCase("Cookie field, none for the host", key: "header.none", [otherURL]),
            Case(
                label: "Set-Cookie, 1 field replacing a stored cookie", key: "store.replace",
                workload: Workload(name: "cookies.store.replace") { count in
                    for _ in 0..<count { storage.storeCookies(from: replacing, for: url, now: now) }
                    return count
                }),
            Case(
                label: "Set-Cookie, 3 fields (a login response)", key: "store.login",
                workload: Workload(name: "cookies.store.login") { count in
                    for _ in 0..<count { storage.storeCookies(from: login, for: url, now: now) }
                    return count
                }),
        ]
    }

    /// Allocations per operation for each case key, in the steady state.
    func allocationsPerCase() -> [String: Double] {
        Dictionary(uniqueKeysWithValues: cases.map { ($0.key, allocationsPerOperation($0.workload)) })
    }

    /// Times each workload and returns the table, with callgrind's `instructions` per operation
    /// by workload name when there are some.
    func run(rounds: RoundRobin, instructions: [String: Double]?) -> ResultTable {
        var table = ResultTable(
            suite: "cookies",
            title: "What the cookie store costs a request (ns per operation, lower is better)",
            columns: ["workload", "ns", "allocs/op", "instructions/op", "aim"])
        let allocations = allocationsPerCase()
        for testCase in cases {
            let nanoseconds = rounds.samples([testCase.workload])[0].median
            let aim = testCase.key.hasPrefix("header.50") ? "< 2000 ns, ≤ 2 allocs" : "—"
            let count = instructions?[testCase.workload.name].map { Format.grouped(Int($0.rounded())) } ?? "—"
            table.rows.append([
                testCase.label, Format.fixed(nanoseconds, 0), Format.fixed(allocations[testCase.key] ?? .nan, 2), count,
                aim,
            ])
        }
        table.notes = [
            "\(rounds.summary). `InMemoryCookieStorage` (the default store), through the calls a `Session` makes per request: `cookieFieldValue(for:now:)` before sending, `storeCookies(from:for:now:)` after a response with `Set-Cookie`.",
            "The store: 50 cookies for `api.example.com/v1/items` (40 host-only, 30 at `/` and 10 at `/v1`; 10 for `example.com`; names of 7 or 8 bytes, values of 24 to 40), all sent, a \(fieldBytes)-byte field; and 100 cookies of 10 other hosts. The jar renders the cookies a host's requests over one security may send (`HostCookieList`: every path, in field order, their paths and pairs in one byte buffer) and keeps them until a cookie is stored, removed or expires; a request filters them by its path and copies the pairs, and the same path again gets the last field itself. \"The same URL again\" is a daemon polling one endpoint; \"a new path each request\" goes through 64 paths under `/v1/items/` in turn; \"every other request to another host\" alternates with `host0.example.org` (10 cookies): the jar keeps the last 4 hosts' cookies rendered, so both stay (the figure is the mean of the two requests); \"six hosts in turn\" goes through `api.example.com` and five hosts of 10 cookies, more than are kept, so every request walks the store and renders its host's cookies (the mean of the six: one 50-cookie and five 10-cookie renders). \"None for the host\": `static.example.net`, whose labels have no cookies.",
            "Instructions per operation: callgrind over 2,000 operations after 200 to warm up (exact, unlike the times on a shared VM).",
            "Storing: each field parsed (RFC 6265bis §5.6) and put through the storage model (§5.7), which includes the public-suffix check of `Domain`; \"replacing\" overwrites one of the 50, so the store keeps its size.",
        ]
        return table
    }
}
