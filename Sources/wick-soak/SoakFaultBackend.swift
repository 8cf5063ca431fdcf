// The fault server's side of the soak: a normal answer, or the fault a request asks for.
import Foundation
import Synchronization
import WickTestSupport

/// Answers the soak's fault-server requests. A request's target says what it wants
/// (`/soak?size=N&chunked=0|1&close=0|1&fault=NAME`); its `X-Request-Id` (`soak-<index>`)
/// starts the body, is echoed in a field, and is counted (`timesSeen`). A fault is played only
/// the first time an id arrives: a replay gets the normal answer.
final class SoakFaultBackend: Sendable {
    /// How long a stall lasts: past the client's idle timeout.
    let stall: Duration
    let payloads: SoakPayloads
    /// Arrivals per request index, made whole up front so the count adds no memory during the run.
    private let arrivals: Mutex<[UInt8]>

    init(stall: Duration, payloads: SoakPayloads, requests: Int) {
        self.stall = stall
        self.payloads = payloads
        arrivals = Mutex([UInt8](repeating: 0, count: requests))
    }

    /// The responder to give the fault server.
    func responder() -> FaultResponder {
        FaultResponder { [self] request in answer(request) }
    }

    /// How many times request `index` arrived.
    func timesSeen(_ index: Int) -> Int {
        arrivals.withLock { index < $0.count ? Int($0[index]) : 0 }
    }

    /// The indices of requests that arrived more than once.
    var repeated: [Int] {
        arrivals.withLock { counts in counts.indices.filter { counts[$0] > 1 } }
    }

    private func answer(_ request: FaultRequest) -> [FaultStep] {
        let query = Self.query(of: request.target)
        let id = request.field("X-Request-Id") ?? "-"
        let index = Int(id.dropFirst("soak-".count)) ?? -1
        let timesSeen = arrivals.withLock { counts in
            guard counts.indices.contains(index) else { return 1 }
            counts[index] = counts[index] &+ 1
            return Int(counts[index])
        }
        let size = min(Int(query["size"] ?? "") ?? 0, payloads.bytes1m.count)
        let body = Array("\(id)\n".utf8) + payloads.faultBody(size: size)
        let fault = timesSeen == 1 ? SoakFault(rawValue: query["fault"] ?? "") : nil
        let head = "HTTP/1.1 200 OK\r\nX-Request-Id: \(id)\r\nContent-Length: \(body.count)\r\n\r\n"
        let half = Array(body[..<(body.count / 2)])
        switch fault {
        case .resetBeforeResponse?: return [.reset]
        case .resetMidResponse?: return [.send(head), .send(half), .reset]
        case .truncatedBody?: return [.send(head), .send(half), .close]
        case .stallPastIdleTimeout?: return [.send(head), .send(half), .pause(stall), .close]
        case .garbageHead?: return [.send("HTTP/1.1 2OO 0K\r\n\u{1}nonsense\r\n\r\n"), .close]
        case .slowDrip?:
            let pieces = stride(from: 0, to: body.count, by: 32).map { Array(body[$0..<min($0 + 32, body.count)]) }
            return [.send(head)] + pieces.flatMap { [FaultStep.pause(.milliseconds(15)), .send($0)] }
        case .idleClose?: return [.send(head), .send(body), .close]
        case nil:
            let close = query["close"] == "1"
            if query["chunked"] == "1" {
                var steps: [FaultStep] = [
                    .send(
                        "HTTP/1.1 200 OK\r\nX-Request-Id: \(id)\r\nTransfer-Encoding: chunked\r\n"
                            + (close ? "Connection: close\r\n" : "") + "\r\n")
                ]
                for start in stride(from: 0, to: body.count, by: 16_384) {
                    let chunk = body[start..<min(start + 16_384, body.count)]
                    steps.append(.send(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]))
                }
                steps.append(.send("0\r\n\r\n"))
                return close ? steps + [.close] : steps
            }
            let closing = close ? "Connection: close\r\n" : ""
            let fullHead = "HTTP/1.1 200 OK\r\nX-Request-Id: \(id)\r\nContent-Length: \(body.count)\r\n\(closing)\r\n"
            return close ? [.send(Array(fullHead.utf8) + body), .close] : [.send(Array(fullHead.utf8) + body)]
        }
    }

    /// `a=1&b=2` after the `?` of `target`, as a dictionary.
    private static func query(of target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var pairs: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { pairs[String(parts[0])] = String(parts[1]) }
        }
        return pairs
    }
}
