// A modelled HTTP/2 server for seeded random tests: it answers every request with a planned
// response, honours the client's SETTINGS and flow-control windows, and traps on any illegal
// client move (the mock world that rejects what a real server would).
import WickTestSupport

@testable import WickHTTP2

struct ServerWorld {
    /// One request and the response planned for it.
    struct Exchange {
        var status: Int
        var interim: Bool
        var bodyLength: Int
        var sendsContentLength: Bool
        var trailers: Bool
        var headSent = false
        var bodySent = 0
        var responseEnded = false
        var requestEnded: Bool
        var sendWindow: Int
    }

    var random: SeededRandom
    let maxConcurrentStreams: Int
    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: 1 << 20)
    var parser = HTTP2FrameParser(maxFrameSize: 16_384)
    var prefaceSeen = false
    var requestBlock: (id: HTTP2StreamID, bytes: [UInt8], endStream: Bool)?
    var clientInitialWindow = 65_535
    var connectionSendWindow = 65_535
    var lastStreamID = HTTP2StreamID.connection
    var exchanges: [HTTP2StreamID: Exchange] = [:]
    /// Every plan, kept after the exchange ends, for checking what the client received.
    var plans: [HTTP2StreamID: Exchange] = [:]
    /// Bytes the server has written that the client has not read yet.
    var pending: [UInt8] = []
    /// How often a response had to wait for the client's windows.
    var windowWaits = 0

    init(seed: UInt64, maxConcurrentStreams: Int) {
        random = SeededRandom(seed: seed)
        self.maxConcurrentStreams = maxConcurrentStreams
        write(
            0,
            .settings([
                HTTP2Setting(.maxConcurrentStreams, UInt32(maxConcurrentStreams)), HTTP2Setting(.headerTableSize, 1024),
            ]))
    }

    mutating func write(_ stream: HTTP2StreamID, _ payload: HTTP2Frame.Payload) {
        HTTP2FrameEncoder.encode(HTTP2Frame(streamID: stream, payload: payload), into: &pending)
    }

    mutating func write(_ stream: Int, _ payload: HTTP2Frame.Payload) { write(HTTP2StreamID(stream), payload) }

    /// Reads what the client wrote and reacts as a server must.
    mutating func clientWrote(_ bytes: [UInt8]) {
        var bytes = bytes[...]
        if !prefaceSeen && !bytes.isEmpty {
            precondition(bytes.starts(with: HTTP2FrameEncoder.clientPreface), "no client preface")
            bytes = bytes.dropFirst(HTTP2FrameEncoder.clientPreface.count)
            prefaceSeen = true
        }
        parser.append(bytes)
        while let frame = must("the client's frames parse", { try parser.nextFrame() }) { frameFromClient(frame) }
    }

    private mutating func frameFromClient(_ frame: HTTP2Frame) {
        let id = frame.streamID
        if let block = requestBlock {
            guard case .continuation(let fragment, let endHeaders) = frame.payload, id == block.id else {
                preconditionFailure("client interleaved \(frame) into a field block")
            }
            requestBlock!.bytes += fragment
            if endHeaders { requestReceived() }
            return
        }
        switch frame.payload {
        case .settings(let settings):
            for setting in settings where setting.identifier == .initialWindowSize {
                let delta = Int(setting.value) - clientInitialWindow
                clientInitialWindow = Int(setting.value)
                for key in exchanges.keys { exchanges[key]!.sendWindow += delta }
            }
            write(0, .settingsAck)
        case .settingsAck, .priority:
            break
        case .headers(let headers):
            precondition(id.isClientInitiated && id > lastStreamID, "client opened stream \(id) after \(lastStreamID)")
            precondition(exchanges.count < maxConcurrentStreams, "client exceeded MAX_CONCURRENT_STREAMS")
            lastStreamID = id
            requestBlock = (id, headers.fieldBlockFragment, headers.endStream)
            if headers.endHeaders { requestReceived() }
        case .data(let bytes, let endStream, _):
            guard exchanges[id] != nil else { preconditionFailure("client sent DATA on closed stream \(id)") }
            precondition(!exchanges[id]!.requestEnded, "client sent DATA after END_STREAM on \(id)")
            if endStream { exchanges[id]!.requestEnded = true }
            // The server consumes request bodies at once and gives the window back.
            if !bytes.isEmpty {
                write(0, .windowUpdate(increment: bytes.count))
                if !endStream { write(id, .windowUpdate(increment: bytes.count)) }
            }
            closeIfDone(id)
        case .rstStream:
            exchanges[id] = nil
        case .windowUpdate(let increment):
            if id.isConnection {
                connectionSendWindow += increment
            } else if exchanges[id] != nil {
                exchanges[id]!.sendWindow += increment
            }
        case .ping(let data, let ack):
            if !ack { write(0, .ping(opaqueData: data, ack: true)) }
        case .goAway:
            break
        case .continuation, .pushPromise, .unknown:
            preconditionFailure("client sent \(frame)")
        }
    }

    private mutating func requestReceived() {
        let block = requestBlock!
        requestBlock = nil
        let fields = must("the request block decodes") { try decoder.decode(block.bytes[...]) }
        precondition(
            fields.prefix(4).map { String(decoding: $0.name, as: UTF8.self) } == [
                ":method", ":scheme", ":authority", ":path",
            ])
        let isHead = fields[0].value.elementsEqual("HEAD".utf8)
        let status = [200, 200, 201, 204, 404].randomElement(using: &random)!
        let hasBody = !isHead && status != 204
        let exchange = Exchange(
            status: status, interim: Int.random(in: 0..<5, using: &random) == 0,
            bodyLength: hasBody ? [0, 1, 100, 5000, 70_000].randomElement(using: &random)! : 0,
            sendsContentLength: Bool.random(using: &random),
            trailers: hasBody && Int.random(in: 0..<4, using: &random) == 0,
            requestEnded: block.endStream, sendWindow: clientInitialWindow)
        exchanges[block.id] = exchange
        plans[block.id] = exchange
    }

    private mutating func closeIfDone(_ id: HTTP2StreamID) {
        if let exchange = exchanges[id], exchange.requestEnded && exchange.responseEnded { exchanges[id] = nil }
    }

    /// Advances one response by one frame, if any can move.
    mutating func step() {
        let candidates = exchanges.keys.filter { !exchanges[$0]!.responseEnded }.sorted()
        guard let id = candidates.randomElement(using: &random) else { return }
        var exchange = exchanges[id]!
        if !exchange.headSent {
            if exchange.interim {
                exchange.interim = false
                write(
                    id,
                    .headers(
                        HTTP2HeadersFrame(
                            fieldBlockFragment: block([(":status", "103")]), endStream: false, endHeaders: true)))
            } else {
                var list = [(":status", String(exchange.status)), ("server", "world")]
                if exchange.sendsContentLength { list.append(("content-length", String(exchange.bodyLength))) }
                let ends = exchange.bodyLength == 0 && !exchange.trailers
                write(
                    id, .headers(HTTP2HeadersFrame(fieldBlockFragment: block(list), endStream: ends, endHeaders: true)))
                exchange.headSent = true
                exchange.responseEnded = ends
            }
        } else if exchange.bodySent < exchange.bodyLength {
            let wanted = min(
                Int.random(in: 1...20_000, using: &random), exchange.bodyLength - exchange.bodySent, 16_384)
            let allowed = min(wanted, exchange.sendWindow, connectionSendWindow)
            guard allowed > 0 else {
                windowWaits += 1
                return
            }
            exchange.bodySent += allowed
            exchange.sendWindow -= allowed
            connectionSendWindow -= allowed
            let ends = exchange.bodySent == exchange.bodyLength && !exchange.trailers
            write(
                id,
                .data(
                    bytes: Array(repeating: UInt8(truncatingIfNeeded: id.rawValue), count: allowed)[...],
                    endStream: ends,
                    paddingLength: nil))
            exchange.responseEnded = ends
        } else {
            write(
                id,
                .headers(
                    HTTP2HeadersFrame(
                        fieldBlockFragment: block([("x-trailer", "1")]), endStream: true, endHeaders: true)))
            exchange.responseEnded = true
        }
        exchanges[id] = exchange
        closeIfDone(id)
    }

    private mutating func block(_ list: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        encoder.encode(list.map { HPACKHeaderField($0.0, $0.1) }, into: &bytes)
        return bytes
    }

    /// Up to `count` of the pending bytes, removed.
    mutating func take(upTo count: Int) -> [UInt8] {
        let taken = Array(pending.prefix(count))
        pending.removeFirst(taken.count)
        return taken
    }
}
