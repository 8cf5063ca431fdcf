// The soak's request mix: a seeded choice per request of server, method, size, framing and fault.
import Wick
import WickTestSupport

/// Makes the n-th request of a run. The same seed gives the same mix.
///
/// Without a fault: half go to nginx (http or https; GET of 1 KiB, 64 KiB and 1 MiB files,
/// `Connection: close`, gzip and chunked 1 MiB text, POST of 1 KiB and 256 KiB bodies, PUT of
/// 1 KiB and 1 MiB bodies), half to the fault server answering normally (GET, POST or PUT;
/// 100 B, 4 KiB or 256 KiB; `Content-Length` or chunked; keep-alive or close). With a fault
/// (`faultRate` of the requests): the fault server, a method, and one `SoakFault` in turn.
struct SoakPlan: Sendable {
    let faultRate: Double
    let seed: UInt64
    /// The payloads, made once: nginx's files and the fault server's bodies.
    let payloads: SoakPayloads

    func request(_ index: Int) -> SoakCase {
        var random = SeededRandom(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let id = "soak-\(index)"
        if Double(random.next() % 1_000_000) / 1_000_000 < faultRate {
            let fault = SoakFault.allCases[Int(random.next() % UInt64(SoakFault.allCases.count))]
            return faultServer(id: id, random: &random, fault: fault)
        }
        return random.next() % 2 == 0 ? nginx(id: id, random: &random) : faultServer(id: id, random: &random, fault: nil)
    }

    private func nginx(id: String, random: inout SeededRandom) -> SoakCase {
        let server: SoakCase.Server = random.next() % 2 == 0 ? .nginxHTTP : .nginxHTTPS
        let roll = Int(random.next() % 100)
        let files = payloads
        func make(_ method: HTTPMethod, _ target: String, body: [UInt8]? = nil, statuses: Set<Int> = [200], expect: [UInt8])
            -> SoakCase
        {
            SoakCase(
                id: id, method: method, server: server, target: target, body: body, statuses: statuses,
                expectedBody: SoakBody(prefix: [], payload: expect), fault: nil)
        }
        switch roll {
        case 0..<30: return make(.get, "/bytes/1k", expect: files.bytes1k)
        case 30..<42: return make(.get, "/bytes/64k", expect: files.bytes64k)
        case 42..<52: return make(.get, "/close/1k", expect: files.bytes1k)
        case 52..<55: return make(.get, "/bytes/1m", expect: files.bytes1m)
        case 55..<57: return make(.get, "/text/1m.txt", expect: files.text1m)  // gzip, decoded
        case 57..<59: return make(.get, "/chunked/1m.txt", expect: files.text1m)
        case 59..<74: return make(.post, "/post/1k", body: files.bytes1k, expect: files.bytes1k)
        case 74..<78: return make(.post, "/post/64k", body: files.bytes256k, expect: files.bytes64k)
        case 78..<97:
            return make(.put, "/upload/soak-\(roll % 8)", body: files.bytes1k, statuses: [201, 204], expect: [])
        default:
            return make(.put, "/upload/soak-big-\(roll % 2)", body: files.bytes1m, statuses: [201, 204], expect: [])
        }
    }

    private func faultServer(id: String, random: inout SeededRandom, fault: SoakFault?) -> SoakCase {
        let method: HTTPMethod = [.get, .post, .put][Int(random.next() % 3)]
        let size =
            fault == .slowDrip ? 256 : fault != nil ? 4_096 : [100, 4_096, 262_144][Int(random.next() % 3)]
        let chunked = fault == nil && random.next() % 2 == 0
        let close = fault == nil && random.next() % 4 == 0
        let target = "/soak?size=\(size)&chunked=\(chunked ? 1 : 0)&close=\(close ? 1 : 0)&fault=\(fault?.rawValue ?? "none")"
        return SoakCase(
            id: id, method: method, server: .fault, target: target,
            body: method == .get ? nil : payloads.bytes1k, statuses: [200],
            expectedBody: SoakBody(prefix: Array("\(id)\n".utf8), payload: payloads.faultBody(size: size)), fault: fault)
    }
}

/// The bytes the soak's servers send, made once.
struct SoakPayloads: Sendable {
    let bytes1k = TestPayload.bytes(count: 1_024)
    let bytes64k = TestPayload.bytes(count: 65_536)
    let bytes256k = TestPayload.bytes(count: 262_144)
    let bytes1m = TestPayload.bytes(count: 1 << 20)
    let text1m = TestPayload.text(count: 1 << 20)

    /// The fault server's body of `size` bytes after the id line: the start of `bytes1m`.
    func faultBody(size: Int) -> [UInt8] { Array(bytes1m[..<size]) }
}
