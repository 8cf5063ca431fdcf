// A hostile server floods Set-Cookie fields: the store keeps to its limits however many arrive,
// through a real Session and on the store alone.
import Foundation
import Testing
import Wick
import WickTestSupport

struct CookieFloodTests {
    /// The bytes a store holds for its cookies' strings.
    private static func heldBytes(_ cookies: [Cookie]) -> Int {
        cookies.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + $1.domain.utf8.count + $1.path.utf8.count }
    }

    @Test func aFloodThroughASessionKeepsFiftyCookies() async throws {
        // 40 responses on one keep-alive connection, each with 150 Set-Cookie fields of 300
        // bytes (45 KB of head, under the parser's 64 KiB): 6,000 cookies for one host.
        let responses = (0..<40).map { response -> FaultStep in
            let fields = (0..<150).map { "Set-Cookie: r\(response)c\($0)=\(String(repeating: "v", count: 280)); Path=/\r\n" }
            return .send(Array(("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" + fields.joined() + "\r\nok").utf8))
        }
        let server = try FaultServer(steps: responses.flatMap { [FaultStep.readRequestHead, $0] })
        defer { server.stop() }
        let storage = InMemoryCookieStorage()
        let session = makeSession { $0.cookieStorage = storage }
        for _ in 0..<40 {
            _ = try await session.request("http://127.0.0.1:\(server.port)/").validate().serializingData().value
        }
        let kept = storage.allCookies()
        #expect(kept.count == InMemoryCookieStorage.defaultMaximumCookiesPerDomain)
        // The most recent survive: the last response's last fifty.
        #expect(Set(kept.map(\.name)) == Set((100..<150).map { "r39c\($0)" }))
        // What the last request sent was bounded too: fifty cookies, not six thousand.
        let lastSent = String(decoding: server.received(onConnection: 0), as: UTF8.self)
            .components(separatedBy: "\r\n\r\n").dropLast().last ?? ""
        let cookieLine = lastSent.split(separator: "\r\n").first { $0.hasPrefix("Cookie: ") } ?? ""
        #expect(cookieLine.split(separator: ";").count == 50)
        await session.shutdown()
    }

    @Test func aFloodAcrossHostsKeepsTheTotal() async {
        let storage = InMemoryCookieStorage()
        let value = String(repeating: "x", count: 100)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // 64 hosts under one registrable domain, each setting 60 cookies for itself and 60 for
        // the parent domain: 7,680 cookies offered, 3,250 of them within the per-domain limit.
        // (Small values, few hosts past the total, and a yield after each host: it runs on a
        // cooperative thread, which it must not hold for long.)
        for host in 0..<64 {
            let fields = (0..<60).flatMap { ["h\($0)=\(value)", "d\(host)x\($0)=\(value); Domain=flood.test"] }
            storage.storeCookies(from: fields, for: URL(string: "https://h\(host).flood.test/")!, now: now + Double(host))
            if host % 10 == 9 { #expect(storage.allCookies(now: now).count <= InMemoryCookieStorage.defaultMaximumCookies) }
            await Task.yield()
        }
        let cookies = storage.allCookies(now: now)
        #expect(cookies.count == InMemoryCookieStorage.defaultMaximumCookies)
        let perDomain = Dictionary(grouping: cookies, by: \.domain).mapValues(\.count)
        #expect(perDomain.values.allSatisfy { $0 <= InMemoryCookieStorage.defaultMaximumCookiesPerDomain })
        #expect(perDomain["flood.test"] == 50)
        // 3,000 cookies of at most 4 KB of name and value, plus domain and path: about 12 MB.
        #expect(Self.heldBytes(cookies) < InMemoryCookieStorage.defaultMaximumCookies * (4096 + 64))
    }

    @Test func anOversizedCookieIsNotStoredAtAll() {
        let storage = InMemoryCookieStorage()
        storage.storeCookies(
            from: ["big=" + String(repeating: "x", count: 5000), "ok=1"], for: URL(string: "http://h.test/")!)
        #expect(storage.allCookies().map(\.name) == ["ok"])
    }
}
