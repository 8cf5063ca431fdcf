// Seeded random interleavings of client calls and server frames against a modelled server,
// checking the machine's invariants after every step: a failing seed replays exactly.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP2

@Suite struct HTTP2ConnectionRandomTests {
    static let seeds: ClosedRange<UInt64> = 1...150
    static let stepsPerSeed = 400

    /// What the test knows of one stream from the client's side.
    struct ClientStream {
        var bodyToSend: Int
        var waitsForWindow = false
        var received = 0
        var unconsumed = 0
        var ended = false
        var completed = false
    }

    struct Totals {
        var completed = 0
        var clientResets = 0
        var serverWindowWaits = 0
        var clientWindowWaits = 0
        var informational = 0
        var trailers = 0
        var livenessPingsAnswered = 0
    }

    @Test func randomSequencesKeepTheInvariants() {
        var totals = Totals()
        for seed in Self.seeds { run(seed: seed, totals: &totals) }
        // The interesting paths were reached.
        #expect(totals.completed > 1000)
        #expect(totals.clientResets > 50)
        #expect(totals.serverWindowWaits > 100, "slow readers stopped the server")
        #expect(totals.clientWindowWaits > 10, "request bodies waited for the server's windows")
        #expect(totals.informational > 50 && totals.trailers > 50)
        #expect(totals.livenessPingsAnswered > 100, "liveness PINGs went out and were answered")
    }

    func run(seed: UInt64, totals: inout Totals) {
        var random = SeededRandom(seed: seed &* 7919)
        var configuration = HTTP2Configuration()
        configuration.initialStreamWindowSize = [8192, 65_535].randomElement(using: &random)!
        configuration.connectionWindowSize = [65_535, 200_000].randomElement(using: &random)!
        configuration.maxConcurrentStreams = Int.random(in: 1...6, using: &random)
        configuration.controlFrameRate = HTTP2FrameRateLimit(burst: 100_000, perSecond: 0)
        // Liveness PINGs often; the server always answers, so no deadline may pass.
        configuration.pingInterval = .milliseconds(Int.random(in: 1...20, using: &random))
        configuration.pingAckTimeout = .seconds(10)
        configuration.settingsAckTimeout = .seconds(10)
        var machine = HTTP2ConnectionStateMachine(configuration: configuration)
        var world = ServerWorld(seed: seed, maxConcurrentStreams: Int.random(in: 1...8, using: &random))
        var streams: [HTTP2StreamID: ClientStream] = [:]
        var now = Deadline(uptimeNanoseconds: 1)
        machine.start(at: now)

        func handle(_ events: [HTTP2ConnectionEvent]) {
            for event in events {
                switch event {
                case .informationalResponse(let id, _):
                    #expect(streams[id]?.ended == false, "seed \(seed): 1xx on ended \(id)")
                    totals.informational += 1
                case .response(let id, let head, let endStream):
                    #expect(streams[id]?.ended == false, "seed \(seed): response on ended \(id)")
                    #expect(head.status.rawValue == world.plans[id]!.status)
                    if endStream { streams[id]!.completed = true }
                case .body(let id, let bytes, let endStream):
                    #expect(streams[id]?.ended == false, "seed \(seed): body on ended \(id)")
                    streams[id]!.received += bytes.count
                    streams[id]!.unconsumed += bytes.count
                    if endStream { streams[id]!.completed = true }
                case .trailers(let id, _):
                    streams[id]!.completed = true
                    totals.trailers += 1
                case .streamClosed(let id):
                    #expect(
                        streams[id]?.ended == false && streams[id]?.completed == true, "seed \(seed): close of \(id)")
                    #expect(streams[id]!.received == world.plans[id]!.bodyLength, "seed \(seed): body of \(id)")
                    streams[id]!.ended = true
                    totals.completed += 1
                case .sendWindowAvailable(let id):
                    streams[id]!.waitsForWindow = false
                case .pingAcknowledged(let data):
                    if data != seed { totals.livenessPingsAnswered += 1 }
                case .remoteSettingsChanged:
                    break
                case .streamReset, .streamFailed, .goAway, .connectionFailed, .connectionClosed:
                    Issue.record("seed \(seed): a well-behaved server caused \(event)")
                }
            }
        }

        // The server's SETTINGS arrive first, so its stream limit binds every request (a client
        // may open streams earlier, but then a real server refuses the excess with REFUSED_STREAM).
        world.clientWrote(machine.takePendingOutput())
        handle(machine.bytesReceived(world.take(upTo: .max)[...], at: now))
        world.clientWrote(machine.takePendingOutput())

        for _ in 0..<Self.stepsPerSeed {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<15:
                guard machine.availableStreamCapacity > 0 else { break }
                let method: HTTPMethod = [.get, .get, .head, .post].randomElement(using: &random)!
                let body = method == .post ? [0, 10, 70_000].randomElement(using: &random)! : 0
                let head = HTTP2RequestHead(method: method, scheme: "https", authority: "world", path: "/\(seed)")
                let id = must("a stream slot was free") { try machine.openStream(head, endStream: method != .post) }
                streams[id] = ClientStream(bodyToSend: method == .post ? body : 0)
                if method == .post {
                    let sent = machine.sendBody([UInt8](repeating: 1, count: body)[...], on: id, endStream: true)
                    streams[id]!.bodyToSend -= sent.sent
                    streams[id]!.waitsForWindow = streams[id]!.bodyToSend > 0
                    if streams[id]!.waitsForWindow { totals.clientWindowWaits += 1 }
                }
            case 15..<25:
                for (id, stream) in streams where !stream.ended && stream.bodyToSend > 0 && !stream.waitsForWindow {
                    let sent = machine.sendBody(
                        [UInt8](repeating: 1, count: stream.bodyToSend)[...], on: id, endStream: true)
                    streams[id]!.bodyToSend -= sent.sent
                    streams[id]!.waitsForWindow = streams[id]!.bodyToSend > 0
                    if sent.streamClosed {
                        #expect(streams[id]!.completed)
                        streams[id]!.ended = true
                        totals.completed += 1
                    }
                }
            case 25..<45:
                // The consumer drains part of one stream's bytes.
                let candidates = streams.keys.filter { streams[$0]!.unconsumed > 0 }.sorted()
                if let id = candidates.randomElement(using: &random) {
                    let count = Int.random(in: 1...streams[id]!.unconsumed, using: &random)
                    machine.bodyConsumed(count, on: id)
                    streams[id]!.unconsumed -= count
                }
            case 45..<47:
                let open = streams.keys.filter { !streams[$0]!.ended }.sorted()
                if let id = open.randomElement(using: &random) {
                    machine.resetStream(id)
                    streams[id]!.ended = true
                    streams[id]!.unconsumed = 0
                    totals.clientResets += 1
                }
            case 47..<48:
                machine.sendPing(opaqueData: seed)
            case 48..<50:
                // The driver's liveness timer fires, possibly early.
                now = now + .milliseconds(2)
                handle(machine.checkLiveness(at: now))
            case 50..<75:
                world.step()
            default:
                let piece = world.take(upTo: Int.random(in: 0...3000, using: &random))
                now = now + .milliseconds(1)
                handle(machine.bytesReceived(piece[...], at: now))
            }
            world.clientWrote(machine.takePendingOutput())

            // Invariants.
            #expect(machine.openStreams.count <= min(configuration.maxConcurrentStreams, world.maxConcurrentStreams))
            for (id, stream) in streams where !stream.ended {
                #expect(
                    stream.unconsumed <= configuration.initialStreamWindowSize,
                    "seed \(seed): \(id) buffered past its window")
            }
            #expect(streams.values.reduce(0) { $0 + $1.unconsumed } <= configuration.connectionWindowSize)
            #expect(machine.nextLivenessCheck != nil, "seed \(seed): a live connection always has a check due")
        }
        totals.serverWindowWaits += world.windowWaits
    }
}
