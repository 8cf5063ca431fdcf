// One HTTP/1.1 connection composed by hand from Wick's layers: a reactor channel, the request
// encoder, the response parser and the content decoder. It is what `wick` uses until the
// transport (connection pool and driver) lands; then `wick` moves to `Session`, and this goes.
import WickCore
import WickHTTP1
import WickReactor

/// What one exchange produced, with a monotonic timestamp for each phase.
struct ExchangeResult: Sendable {
    var head: HTTPResponseHead?
    var interimStatuses: [HTTPStatus] = []
    var wireBodyBytes = 0
    var decodedBody: [UInt8] = []
    var decodedCodings: [ContentCoding] = []
    var trailers: HTTPHeaders = HTTPHeaders()
    var connectionReusable = false
    var started = Deadline.now()
    var requestWritten: Deadline?
    var firstByte: Deadline?
    var headParsed: Deadline?
    var completed: Deadline?
}

/// Errors the layer composition reports, each naming the layer that failed.
enum LayerError: Error, CustomStringConvertible {
    case connect(ReactorError)
    case encode(HTTPRequestEncodingError)
    case parse(HTTPParseError)
    case decode(ContentDecodingError)
    case connection(ReactorError?)
    case busy

    var description: String {
        switch self {
        case .connect(let error): "connect failed: \(error)"
        case .encode(let error): "request refused by the encoder: \(error)"
        case .parse(let error): "malformed response: \(error)"
        case .decode(let error): "body decoding failed: \(error)"
        case .connection(let error?): "connection failed: \(error)"
        case .connection(nil): "the server closed the connection before the response ended"
        case .busy: "an exchange is already running on this connection"
        }
    }

    /// Wraps an error thrown while reading a response: only the parser and the content decoder
    /// throw there.
    init(_ error: any Error) {
        switch error {
        case let error as HTTPParseError: self = .parse(error)
        case let error as ContentDecodingError: self = .decode(error)
        default: preconditionFailure("unexpected error while reading a response: \(error)")
        }
    }
}

/// A keep-alive HTTP/1.1 connection on one event loop, one exchange at a time.
///
/// Thread ownership: every stored property below is read and written only on `channel.loop`
/// (each entry point hops there first), which is what makes the `@unchecked Sendable` sound.
final class LayerConnection: ChannelDelegate, @unchecked Sendable {
    let channel: Channel
    let connectTime: Duration
    private var parser = HTTPResponseParser()
    private var decoder: ContentDecoder?
    private var requestBuffer: [UInt8] = []
    private var result = ExchangeResult()
    private var pending: CheckedContinuation<ExchangeResult, any Error>?
    private(set) var exchanges = 0

    private init(channel: Channel, connectTime: Duration) {
        self.channel = channel
        self.connectTime = connectTime
        requestBuffer.reserveCapacity(1_024)
    }

    /// Resolves and connects (Happy Eyeballs) on one of `group`'s loops.
    /// - Throws: `LayerError.connect` with the reactor's reason.
    static func open(host: String, port: UInt16, group: EventLoopGroup) async throws -> LayerConnection {
        let loop = group.next()
        let start = Deadline.now()
        let channel: Channel
        do {
            channel = try await Connector(resolver: group.resolver).connect(host: host, port: port, on: loop)
        } catch {
            throw LayerError.connect(error)
        }
        let connectTime = Deadline.now() - start
        return try await loop.submit {
            let connection = LayerConnection(channel: channel, connectTime: connectTime)
            channel.start(delegate: connection)
            return connection
        }
    }

    /// Sends `head` and waits for the whole response, decoding its content codings.
    /// - Throws: `LayerError` naming the layer that failed.
    func exchange(_ head: HTTPRequestHead) async throws -> ExchangeResult {
        try await withCheckedThrowingContinuation { continuation in
            let scheduled = channel.loop.execute { self.begin(head, continuation) }
            if !scheduled { continuation.resume(throwing: LayerError.connection(.loopShutDown)) }
        }
    }

    /// Closes the connection.
    func close() async {
        _ = try? await channel.loop.submit { self.channel.close() }
    }

    private func begin(_ head: HTTPRequestHead, _ continuation: CheckedContinuation<ExchangeResult, any Error>) {
        guard pending == nil else { return continuation.resume(throwing: LayerError.busy) }
        guard channel.isOpen else { return continuation.resume(throwing: LayerError.connection(nil)) }
        requestBuffer.removeAll(keepingCapacity: true)
        do {
            try HTTPRequestEncoder.encodeHead(head, into: &requestBuffer)
        } catch {
            return continuation.resume(throwing: LayerError.encode(error))
        }
        result = ExchangeResult()
        decoder = nil
        parser.expectResponse(to: head.method)
        pending = continuation
        exchanges += 1
        do {
            try channel.write(requestBuffer)
            result.requestWritten = .now()
        } catch {
            fail(.connection(error))
        }
    }

    func channelRead(_ channel: Channel, bytes: Span<UInt8>) {
        guard pending != nil else {
            // Bytes nobody asked for: the connection can no longer be trusted.
            channel.close()
            return
        }
        if result.firstByte == nil { result.firstByte = .now() }
        bytes.withUnsafeBufferPointer { buffer in consume(UnsafeRawBufferPointer(buffer)) }
    }

    func channelReadEOF(_ channel: Channel) {
        guard pending != nil else { return channel.close() }
        do {
            if case .end(let reusable)? = try parser.eofReceived() {
                try finish(reusable: reusable)
            } else {
                fail(.connection(nil))
            }
        } catch {
            fail(LayerError(error))
        }
        channel.close()
    }

    func channelClosed(_ channel: Channel, error: ReactorError?) {
        if pending != nil { fail(.connection(error)) }
    }

    private func consume(_ buffer: UnsafeRawBufferPointer) {
        var used = 0
        do {
            while pending != nil {
                let input = UnsafeRawBufferPointer(rebasing: buffer[used...])
                let step = try parser.parse(input)
                used += step.consumed
                switch step.event {
                case .needMoreData:
                    return
                case .informationalHead(let head):
                    result.interimStatuses.append(head.status)
                case .head(let head), .switchingProtocols(let head):
                    result.head = head
                    result.headParsed = .now()
                    let decoder = try ContentDecoder(headers: head.headers)
                    if decoder.decodesBody {
                        self.decoder = decoder
                        result.decodedCodings = decoder.codings
                    }
                case .body(let range):
                    let piece = Array(UnsafeRawBufferPointer(rebasing: input[range]))
                    result.wireBodyBytes += piece.count
                    if let decoder {
                        try decoder.decode(piece[...], appendingTo: &result.decodedBody)
                    } else {
                        result.decodedBody += piece
                    }
                case .trailers(let fields):
                    result.trailers = fields.headers
                case .end(let reusable):
                    try finish(reusable: reusable)
                    if used < buffer.count { channel.close() }  // bytes after the response: unusable
                }
            }
        } catch {
            fail(LayerError(error))
            channel.close()
        }
    }

    private func finish(reusable: Bool) throws(ContentDecodingError) {
        try decoder?.finish()
        result.connectionReusable = reusable
        result.completed = .now()
        let continuation = pending
        pending = nil
        continuation?.resume(returning: result)
        if !reusable { channel.close() }
    }

    private func fail(_ error: LayerError) {
        let continuation = pending
        pending = nil
        continuation?.resume(throwing: error)
    }
}
