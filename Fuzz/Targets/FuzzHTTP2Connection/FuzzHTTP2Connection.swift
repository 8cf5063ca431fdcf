// Fuzzes the HTTP/2 frame parser and the client connection state machine with arbitrary server
// bytes: the same events and output however the bytes are cut, and the machine's promises kept.
//
// Input: byte 0, then the server's byte stream (a SETTINGS frame first makes progress likely;
// the seeds start with one).
//   byte 0   bits 0-2 the piece size of the cut delivery (`pieceSizes`), bit 3 tight limits
//            (`tightConfiguration`), bit 4 the consumer drains every body byte at once, bit 5 the
//            POST stream sends its body as windows allow
//
// The client opens three streams first (a GET, a HEAD and a POST whose body is still open).
// Checks (a failed check traps, which libFuzzer reports):
// - Whole and cut deliveries give the same events and the same output bytes (without the client
//   calls of bits 4-5, which happen between pieces; a third run makes them, cut, for the checks
//   below).
// - At most one `connectionFailed`, and nothing after it; a stream gets no event after its end
//   (streamClosed, streamReset, streamFailed, goAway's unprocessed list, connectionFailed).
// - Unconsumed body bytes per stream never pass the stream window, nor in all the connection's.
// - The output stays proportional to the input (no amplification): at most 4 bytes out per byte
//   in, plus the opening, the requests and the POST body.
// - The liveness clocks (rule 12), started before the first byte and checked once an hour after
//   the last, in whatever state the bytes left: a PING goes out, or a liveness error fails the
//   connection, or nothing (already failed); never anything else.
import CFuzzDriver
import WickCore
import WickHTTP2

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzHTTP2Connection) }
}

let pieceSizes = [0, 1, 2, 7, 9, 16, 100, 1000]

/// Small limits so that inputs reach them.
let tightConfiguration: HTTP2Configuration = {
    var configuration = HTTP2Configuration()
    configuration.maxHeaderListSize = 200
    configuration.maxFieldBlockBytes = 300
    configuration.maxContinuationFrames = 3
    configuration.headerTableSize = 256
    configuration.initialStreamWindowSize = 100
    configuration.connectionWindowSize = 65_535
    configuration.maxConcurrentStreams = 3
    configuration.controlFrameRate = HTTP2FrameRateLimit(burst: 20, perSecond: 10)
    return configuration
}()

/// One run's record.
struct Run: Equatable {
    var events: [HTTP2ConnectionEvent] = []
    var output: [UInt8] = []
}

/// libFuzzer's entry: runs one input (see the top of this file); traps when a check fails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Connection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let configuration = control & 0x08 != 0 ? tightConfiguration : HTTP2Configuration()
    let stream = Array(input.dropFirst())
    let pieceSize = pieceSizes[Int(control & 7)]
    // Whole and cut runs without client calls between reads must agree; the consumer's and the
    // body's calls (bits 4 and 5) come between pieces, so the run with them is checked alone.
    let whole = run(stream, pieces: [stream[...]], configuration: configuration, control: control & 0x0F)
    var pieces: [ArraySlice<UInt8>] = []
    if pieceSize > 0 {
        var start = 0
        while start < stream.count {
            pieces.append(stream[start..<min(stream.count, start + pieceSize)])
            start += pieceSize
        }
    } else {
        pieces = [stream[..<(stream.count / 2)], stream[(stream.count / 2)...]]
    }
    let cut = run(stream, pieces: pieces, configuration: configuration, control: control & 0x0F)
    precondition(whole == cut, "whole and in pieces of \(pieceSize) disagree: \(whole.events) vs \(cut.events)")
    if control & 0x30 != 0 { _ = run(stream, pieces: pieces, configuration: configuration, control: control) }
    return 0
}

func run(_ stream: [UInt8], pieces: [ArraySlice<UInt8>], configuration: HTTP2Configuration, control: UInt8) -> Run {
    var machine = HTTP2ConnectionStateMachine(configuration: configuration)
    var record = Run()
    var ended: Set<HTTP2StreamID> = []
    var unconsumed: [HTTP2StreamID: Int] = [:]
    var postBodyLeft = 100_000
    let post: HTTP2StreamID
    do {
        _ = try machine.openStream(
            HTTP2RequestHead(method: .get, scheme: "https", authority: "fuzz", path: "/"), endStream: true)
        _ = try machine.openStream(
            HTTP2RequestHead(method: .head, scheme: "https", authority: "fuzz", path: "/"), endStream: true)
        post = try machine.openStream(
            HTTP2RequestHead(method: .post, scheme: "https", authority: "fuzz", path: "/"), endStream: false)
    } catch {
        preconditionFailure("a fresh connection refused a request: \(error)")
    }
    record.output += machine.takePendingOutput()
    let opening = record.output.count
    // One instant for every piece: the control-frame meter refills with time, so a clock that
    // moved between pieces let a cut run admit frames its whole run refused as a flood (found
    // after 2.7 million runs). HTTP2LimitTests cover refilling.
    let now = Deadline(uptimeNanoseconds: 1)
    machine.start(at: now)
    var failed = false

    func end(_ id: HTTP2StreamID) {
        precondition(!ended.contains(id), "stream \(id) ended twice")
        ended.insert(id)
        unconsumed[id] = nil
    }

    for piece in pieces {
        let events = machine.bytesReceived(piece, at: now)
        for event in events {
            precondition(!failed, "an event after connectionFailed: \(event)")
            switch event {
            case .informationalResponse(let id, _), .response(let id, _, _), .trailers(let id, _),
                .sendWindowAvailable(let id):
                precondition(!ended.contains(id), "\(event) after the stream ended")
            case .body(let id, let bytes, _):
                precondition(!ended.contains(id), "\(event) after the stream ended")
                unconsumed[id, default: 0] += bytes.count
            case .streamClosed(let id), .streamReset(let id, _, _), .streamFailed(let id, _):
                end(id)
            case .goAway(let goAway):
                goAway.unprocessedStreams.forEach(end)
            case .connectionFailed(_, let open):
                open.forEach(end)
                failed = true
            case .remoteSettingsChanged, .pingAcknowledged, .connectionClosed:
                break
            }
            let buffered = unconsumed.values.reduce(0, +)
            precondition(
                unconsumed.values.allSatisfy { $0 <= max(configuration.initialStreamWindowSize, 65_535) },
                "a stream buffered past its window")
            precondition(buffered <= configuration.connectionWindowSize, "the connection buffered \(buffered)")
        }
        record.events += events
        if control & 0x10 != 0 {
            for (id, count) in unconsumed.sorted(by: { $0.key < $1.key }) where count > 0 {
                machine.bodyConsumed(count, on: id)
                unconsumed[id] = 0
            }
        }
        if control & 0x20 != 0 && postBodyLeft > 0 && !ended.contains(post) && machine.openStreams.contains(post) {
            let sent = machine.sendBody([UInt8](repeating: 0x61, count: postBodyLeft)[...], on: post, endStream: true)
            postBodyLeft -= sent.sent
            if sent.streamClosed { end(post) }
        }
        record.output += machine.takePendingOutput()
    }
    let beforeLiveness = record.output.count
    for event in machine.checkLiveness(at: now + .seconds(3600)) {
        precondition(!failed, "a liveness event after connectionFailed: \(event)")
        guard case .connectionFailed(let error, let open) = event, error.isLivenessFailure else {
            preconditionFailure("checkLiveness reported \(event)")
        }
        open.forEach(end)
        failed = true
        record.events.append(event)
    }
    record.output += machine.takePendingOutput()
    // One PING or one GOAWAY at most.
    let livenessOutput = record.output.count - beforeLiveness
    precondition(livenessOutput <= 9 + 8 + 32, "liveness wrote \(livenessOutput) bytes")
    // The request body's bytes and frame headers (each sendBody call that makes progress follows a
    // window-opening frame of at least 13 input bytes) are the client's own, not amplification.
    let bodyAllowance = (100_000 - postBodyLeft) + 9 * (100_000 / 16_384 + 2 + stream.count / 13)
    precondition(
        record.output.count - opening - bodyAllowance - livenessOutput <= 4 * stream.count + 64,
        "output \(record.output.count) for \(stream.count) bytes in")
    return record
}
