// Wick's side of the `tls` suite: sequential GETs over TLSChannel, composed by hand from the
// layers (the transport's TLS connect path, the request encoder, the response parser), without
// the pool.
import WickCore
import WickHTTP1
import WickReactor
import WickTLS
@_spi(WickDirectConnect) import WickTransport

/// Runs GETs one after another on its loop, each on a new TLS connection or all on one kept
/// alive, and reports how many handshakes resumed a session.
///
/// Connections are opened as the pool opens https connections (`TransportConnector`, Wick's one
/// TLS connect path), all under `context`.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): `connector`, `context`, `loop`,
/// `mode` and `request` are immutable; every `var` is used only on `loop`'s thread (`run` and `open` hop
/// there; the rest runs from the connector's completion and the channel's delegate callbacks).
final class WickHTTPSClient: StreamChannelDelegate, @unchecked Sendable {
    enum Mode {
        /// A new connection per request (`Connection: close`; the client closes after the response).
        case newConnectionPerRequest
        /// One connection for every request; it stays open afterwards.
        case keepAlive
    }

    /// What a run reports.
    struct Outcome: Sendable {
        /// Handshakes made.
        var handshakes = 0
        /// Of those, handshakes that resumed a session (`TLSChannel.isSessionReused`).
        var resumed = 0
    }

    let connector: TransportConnector
    /// The TLS settings, trust store and session cache shared by the connections.
    let context: TLSContext
    let loop: EventLoop
    let mode: Mode
    private let host: String
    private let port: UInt16
    private let request: [UInt8]

    // Loop-thread only.
    private var channel: TLSChannel?
    private var parser = HTTPResponseParser()
    private var awaitingResponse = false
    private var bodyBytes = 0
    private var remaining = 0
    private var outcome = Outcome()
    private var completion: (@Sendable (Result<Outcome, BenchError>) -> Void)?

    init(
        connector: TransportConnector, context: TLSContext, loop: EventLoop, host: String, port: UInt16, mode: Mode
    ) throws {
        self.connector = connector
        self.context = context
        self.loop = loop
        self.mode = mode
        self.host = host
        self.port = port
        var headers = HTTPHeaders()
        if mode == .newConnectionPerRequest { headers.add(name: "Connection", value: "close") }
        var request: [UInt8] = []
        try HTTPRequestEncoder.encodeHead(
            HTTPRequestHead(method: .get, target: .origin("/bytes/1k"), host: "\(host):\(port)", headers: headers),
            into: &request)
        self.request = request
    }

    /// Runs `count` GETs and waits for them (from a thread that is not the loop's).
    /// - Throws: `BenchError` naming what failed.
    func run(_ count: Int) throws -> Outcome {
        let result = ConditionBox<Result<Outcome, BenchError>>()
        let accepted = loop.execute {
            self.start(count) { result.put($0) }
        }
        guard accepted else { throw BenchError("Wick: the loop has shut down") }
        return try result.take().get()
    }

    /// Closes the kept-alive connection, if any.
    func close() {
        let done = ConditionBox<Void>()
        _ = loop.execute {
            self.channel?.close()
            self.channel = nil
            done.put(())
        }
        done.take()
    }

    private func start(_ count: Int, _ completion: @escaping @Sendable (Result<Outcome, BenchError>) -> Void) {
        remaining = count
        outcome = Outcome()
        self.completion = completion
        next()
    }

    private func next() {
        guard remaining > 0 else {
            // Idle from here on, as a pooled connection between requests.
            channel?.streamBecameIdle()
            return finish(.success(outcome))
        }
        if let channel, channel.isOpen {
            send(on: channel)
        } else {
            channel = nil
            connector.connect(host: host, port: port, context: context, on: loop) { result in
                switch result {
                case .success(let channel):
                    self.outcome.handshakes += 1
                    if channel.isSessionReused { self.outcome.resumed += 1 }
                    self.channel = channel
                    channel.start(delegate: self)
                    self.send(on: channel)
                case .failure(let error):
                    self.finish(.failure(BenchError("Wick connect: \(error)")))
                }
            }
        }
    }

    private func send(on channel: TLSChannel) {
        parser.expectResponse(to: .get)
        bodyBytes = 0
        awaitingResponse = true
        do {
            try channel.write(request[...])
        } catch {
            awaitingResponse = false
            finish(.failure(BenchError("Wick write: \(error)")))
        }
    }

    private func finish(_ result: Result<Outcome, BenchError>) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }

    // MARK: StreamChannelDelegate

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        guard awaitingResponse else { return }
        // SAFETY: the buffer is valid for the call; the parser copies what it keeps.
        bytes.withUnsafeBufferPointer { consume(UnsafeRawBufferPointer($0), stream) }
    }

    private func consume(_ buffer: UnsafeRawBufferPointer, _ stream: any StreamChannel) {
        var used = 0
        while awaitingResponse {
            let step: HTTPParseStep
            do {
                step = try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[used...]))
            } catch {
                awaitingResponse = false
                stream.close()
                return finish(.failure(BenchError("Wick parse: \(error)")))
            }
            used += step.consumed
            switch step.event {
            case .needMoreData:
                return
            case .head(let head) where head.status.rawValue != 200:
                awaitingResponse = false
                stream.close()
                return finish(.failure(BenchError("Wick GET: status \(head.status.rawValue)")))
            case .informationalHead, .head, .trailers:
                break
            case .switchingProtocols:
                awaitingResponse = false
                stream.close()
                return finish(.failure(BenchError("Wick GET: switching protocols")))
            case .body(let range):
                bodyBytes += range.count
            case .end(let reusable):
                awaitingResponse = false
                guard bodyBytes == 1_024 else {
                    stream.close()
                    return finish(.failure(BenchError("Wick GET: \(bodyBytes) body bytes")))
                }
                if mode == .newConnectionPerRequest || !reusable {
                    stream.close()
                    channel = nil
                }
                remaining -= 1
                return next()
            }
        }
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        if stream === channel { channel = nil }
        guard awaitingResponse else { return }
        awaitingResponse = false
        finish(.failure(BenchError("Wick: the connection closed during the exchange: \(String(describing: error))")))
    }
}
