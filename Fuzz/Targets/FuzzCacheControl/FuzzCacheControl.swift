// Fuzzes the cache's header parsing from a hostile server's bytes: Cache-Control (RFC 9111
// §5.2), the freshness and age arithmetic over any Date, Expires, Age and Last-Modified
// (§4.2), and Strict-Transport-Security (RFC 6797 §6.1).
//
// Input: lines of `Name: value` response fields (any names; the interesting ones are those
// above); a line starting with `>` is a request field instead. Checks: no trap; every
// delta-seconds directive lies in 0...2³¹ (max-stale may be "any"); age and lifetime are never
// negative and fresh means lifetime > age; an STS policy has a max-age in 0...2³¹.
import CFuzzDriver
import FoundationEssentials
import Wick

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzCacheControl) }
}

private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let url = URL(string: "https://example.com/a")!

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCacheControl(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var response = HTTPHeaders()
    var request = HTTPHeaders()
    for line in text.split(separator: "\n") {
        let isRequest = line.hasPrefix(">")
        let field = isRequest ? line.dropFirst() : line
        guard let colon = field.firstIndex(of: ":") else { continue }
        let name = String(field[..<colon])
        guard !name.isEmpty else { continue }
        let value = String(field[field.index(after: colon)...].drop { $0 == " " })
        if isRequest { request.add(name: name, value: value) } else { response.add(name: name, value: value) }
    }
    for control in [CacheControl(headers: response), CacheControl(headers: request)] {
        for seconds in [control.maxAge, control.sharedMaxAge, control.minFresh, control.staleWhileRevalidate, control.staleIfError] {
            if let seconds { precondition((0...CacheControl.maximumDeltaSeconds).contains(seconds), "delta-seconds \(seconds)") }
        }
        if let maxStale = control.maxStale {
            precondition(maxStale == Int.max || (0...CacheControl.maximumDeltaSeconds).contains(maxStale), "max-stale \(maxStale)")
        }
    }
    let stored = CachedResponse(
        url: url, statusCode: 200, headers: response, data: Data(), requestDate: now.addingTimeInterval(-1), responseDate: now)
    for later in [0.0, 1, 86_400, 1e9] {
        let freshness = CacheFreshness(of: stored, now: now.addingTimeInterval(later))
        precondition(freshness.age >= 0 && freshness.lifetime >= 0, "negative: \(freshness)")
        precondition(freshness.isFresh == (freshness.lifetime > freshness.age), "fresh disagrees: \(freshness)")
    }
    if let field = response.value(for: "Strict-Transport-Security"), let policy = StrictTransportSecurity(field) {
        precondition((0...CacheControl.maximumDeltaSeconds).contains(policy.maxAge), "STS max-age \(policy.maxAge)")
    }
    return 0
}
