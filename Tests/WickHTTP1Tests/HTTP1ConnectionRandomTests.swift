// Seeded random interleavings of every connection event, checking the machine's invariants after
// each step: a failing seed replays exactly.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

@Suite struct HTTP1ConnectionRandomTests {
    /// One request with its body parts and the response the server will send.
    struct Plan {
        var request: HTTP1ConnectionRequest
        var parts: [[UInt8]]
        var trailers: HTTPHeaders
        var response: [UInt8]
        var responseSent = 0
    }

    static let seeds: ClosedRange<UInt64> = 1...400
    static let stepsPerSeed = 150

    @Test func randomEventSequencesKeepTheInvariants() {
        var totals = (requests: 0, releases: 0, closes: 0, failures: 0)
        func tally(_ driver: MockConnectionDriver) {
            totals.requests += driver.requestsStarted
            totals.releases += driver.releases
            totals.failures += driver.completions.filter { $0.failure != nil }.count
            if driver.isClosed { totals.closes += 1 }
        }
        for seed in Self.seeds {
            var random = SeededRandom(seed: seed)
            var driver = MockConnectionDriver(isWritable: Bool.random(using: &random))
            var plan: Plan?
            var failedAt: String?
            for step in 0..<Self.stepsPerSeed {
                if driver.isClosed {
                    tally(driver)
                    driver = MockConnectionDriver(isWritable: Bool.random(using: &random))
                    plan = nil
                }
                let event = Self.nextEvent(driver, &plan, &random)
                if let broken = Self.brokenInvariant(driver) {
                    failedAt = "seed \(seed) step \(step) after \(event): \(broken)"
                    break
                }
            }
            if failedAt == nil, driver.isRequestActive {
                driver.cancel()
                failedAt = Self.brokenInvariant(driver).map { "seed \(seed) final cancel: \($0)" }
            }
            if let failedAt {
                Issue.record(Comment(rawValue: failedAt))
                return
            }
            tally(driver)
        }
        print("random walk: \(totals)")
        // The walk reaches every outcome often.
        #expect(totals.requests > 2_000)
        #expect(totals.releases > 300)
        #expect(totals.closes > 300)
        #expect(totals.failures > 300)
    }

    /// What must hold after every event.
    static func brokenInvariant(_ driver: MockConnectionDriver) -> String? {
        if let violation = driver.violations.first { return violation }
        let ended = driver.completions.count
        if ended != driver.requestsStarted - (driver.isRequestActive ? 1 : 0) {
            return "\(driver.requestsStarted) requests started, \(ended) ended, active \(driver.isRequestActive)"
        }
        if driver.isClosed != driver.isMachineClosed {
            return "closed \(driver.isClosed), machine closed \(driver.isMachineClosed)"
        }
        if !driver.isRequestActive {
            if !driver.isClosed && !driver.isMachineIdle { return "no request, not closed, machine not idle" }
            if driver.isTimerScheduled { return "continue timer scheduled with no request" }
            if driver.producer == .producing || driver.producer == .paused { return "producer running with no request" }
        }
        if driver.isClosed
            && driver.completions.last.map({ if case .release = $0.connection { true } else { false } }) == true
            && driver.closeReason == nil
        {
            return "released and closed"
        }
        return nil
    }

    /// Picks and plays one event the world allows now; returns its name.
    static func nextEvent(_ driver: MockConnectionDriver, _ plan: inout Plan?, _ random: inout SeededRandom) -> String {
        guard driver.isRequestActive else {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<3:
                driver.read([UInt8(ascii: "H")])
                return "unsolicited byte"
            case 3..<6:
                driver.eof()
                return "EOF while idle"
            case 6..<8:
                driver.failConnection()
                return "connection failure while idle"
            default:
                var next = makePlan(&random)
                driver.start(next.request)
                if !driver.isRequestActive { next.parts = [] }
                plan = next
                return "start \(next.request.head.method) \(next.request.head.framing)"
            }
        }
        guard var current = plan else { preconditionFailure("a request is active without a plan") }
        defer { plan = current }
        let producerRuns = driver.producer == .producing || driver.producer == .paused
        let responseLeft = current.response.count - current.responseSent
        var choices: [String] = []
        if producerRuns { choices += ["offer", "offer", "offer", current.parts.isEmpty ? "end" : "offer"] }
        if producerRuns && Int.random(in: 0..<20, using: &random) == 0 { choices.append("end") }
        if driver.isTimerScheduled { choices.append("timer") }
        if !driver.isReadingPaused && responseLeft > 0 { choices += ["read", "read", "read"] }
        if !driver.isReadingPaused && responseLeft == 0 { choices.append("eof") }
        if driver.isReadingPaused { choices += ["demand", "demand"] }
        choices += ["writable", "full", "flush"]
        if Int.random(in: 0..<30, using: &random) == 0 {
            choices.append(
                ["cancel", "timeout", "write failure", "connection failure", "eof"].randomElement(using: &random)!)
        }
        let choice = choices.randomElement(using: &random)!
        switch choice {
        case "offer":
            if current.parts.isEmpty {
                driver.offer([UInt8(ascii: "x")])  // one byte too many for a Content-Length body
            } else {
                driver.offer(current.parts.removeFirst())
            }
        case "end":
            driver.endBody(trailers: current.parts.isEmpty ? current.trailers : HTTPHeaders())
        case "timer":
            driver.fireTimer()
        case "read":
            let count = Int.random(in: 0...min(responseLeft, 40), using: &random)
            driver.read(current.response[current.responseSent..<(current.responseSent + count)])
            current.responseSent += count
        case "eof":
            driver.eof()
        case "demand":
            driver.demandMore()
        case "writable":
            driver.setWritable(Bool.random(using: &random))
        case "full":
            driver.consumerFull()
        case "flush":
            driver.flush()
        case "cancel":
            driver.cancel()
        case "timeout":
            driver.perform(driver.machine.requestTimedOut())
        case "write failure":
            driver.failWrite()
        case "connection failure":
            driver.failConnection()
        default:
            preconditionFailure("unknown choice \(choice)")
        }
        return choice
    }

    /// A random request and a random response for it.
    static func makePlan(_ random: inout SeededRandom) -> Plan {
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        let partCount = Int.random(in: 0...3, using: &random)
        let parts = (0..<partCount).map { index in
            [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: Int.random(in: 0...12, using: &random))
        }
        let total = parts.reduce(0) { $0 + $1.count }
        let framing: HTTPRequestFraming
        let method: HTTPMethod
        switch Int.random(in: 0..<4, using: &random) {
        case 0: (framing, method) = (.none, chance(20) ? .head : .get)
        case 1: (framing, method) = (.contentLength(total), .post)
        case 2: (framing, method) = (.chunked, .put)
        default: (framing, method) = (chance(50) ? .contentLength(total) : .chunked, .post)
        }
        var headers = HTTPHeaders()
        if chance(3) { headers.add(name: "X-Bad", value: "line\nbreak") }
        let request = HTTP1ConnectionRequest(
            head: HTTPRequestHead(
                method: method, target: .origin("/r"), host: "example.com", headers: headers, framing: framing),
            expectContinue: chance(35),
            decoding: chance(30) ? .default : nil
        )
        let trailers: HTTPHeaders = framing == .chunked && chance(20) ? ["X-T": "1"] : HTTPHeaders()
        return Plan(
            request: request,
            parts: framing == .none ? [] : parts,
            trailers: trailers,
            response: makeResponse(&random)
        )
    }

    static func makeResponse(_ random: inout SeededRandom) -> [UInt8] {
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        var text = ""
        if chance(40) { text += "HTTP/1.1 100 Continue\r\n\r\n" }
        if chance(10) { text += "HTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n" }
        if chance(3) { text += "HTTP/1.1 101 Switching Protocols\r\n\r\n" }
        let status = [200, 200, 200, 201, 204, 401, 413, 500].randomElement(using: &random)!
        let version = chance(6) ? "1.0" : "1.1"
        var head = "HTTP/\(version) \(status) Status\r\n"
        if chance(15) { head += "Connection: close\r\n" }
        if version == "1.0" && chance(50) { head += "Connection: keep-alive\r\n" }
        var body = [UInt8](repeating: UInt8(ascii: "b"), count: Int.random(in: 0...30, using: &random))
        if chance(20) {
            body = Deflater.compress(body, .gzip)
            head += "Content-Encoding: gzip\r\n"
        }
        var bytes: [UInt8]
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<5:
            bytes = Array((text + head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
        case 5..<9 where version == "1.1":
            bytes = Array((text + head + "Transfer-Encoding: chunked\r\n\r\n").utf8)
            if !body.isEmpty { bytes += Array("\(String(body.count, radix: 16))\r\n".utf8) + body + Array("\r\n".utf8) }
            bytes += Array((chance(30) ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n").utf8)
        default:
            bytes = Array((text + head + "\r\n").utf8) + body
        }
        if chance(5) { bytes[Int.random(in: 0..<bytes.count, using: &random)] = 0 }
        if chance(5) { bytes += Array("HTTP/1.1 200 OK\r\n".utf8) }
        return bytes
    }
}
