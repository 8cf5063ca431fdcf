// One HTTP/1.1 connection composed by hand from Wick's layers: a reactor or TLS stream, the
// request encoder, the response parser and the content decoder. It is what `wick` uses until the
// transport (connection pool and driver) lands; then `wick` moves to `Session`, and this goes.
import WickCore
import WickHTTP1
import WickReactor
import WickTLS

/// What one exchange produced, with a monotonic timestamp for each phase.
struct ExchangeResult: Sendable {
    var head: HTTPResponseHead?
    var interimStatuses: [HTTPStatus] = []
    var wireBodyBytes = 0
    var decodedBody: [UInt8] = []
    var decodedCodings: [ContentCoding] = []
    var trailers: HTTPHeaders = HTTPHeaders()
    var connectionReusable = false
    /// For TLS: version, resumption and ALPN, read on the loop when the exchange ended.
    var tls: String?
    var started = Deadline.now()
    var requestWritten: Deadline?
    var firstByte: Deadline?
    var headParsed: Deadline?
    var completed: Deadline?
}

/// Errors the layer composition reports, each naming the layer that failed.
enum LayerError: Error, CustomStringConvertible {
    case connect(StreamChannelError)
    case encode(HTTPRequestEncodingError)
    case parse(HTTPParseError)
    case decode(ContentDecodingError)
    case connection(StreamChannelError?)
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
final class LayerConnection: StreamChannelDelegate, @unchecked Sendable {
    let channel: any StreamChannel
    let connectTime: Duration
    private var parser = HTTPResponseParser()
    private var decoder: ContentDecoder?
    private var requestBuffer: [UInt8] = []
    private var result = ExchangeResult()
    private var pending: CheckedContinuation<ExchangeResult, any Error>?
    private(set) var exchanges = 0

    private init(channel: any StreamChannel, connectTime: Duration) {
        self.channel = channel
        self.connectTime = connectTime
        requestBuffer.reserveCapacity(1_024)
    }

    /// Resolves and connects (Happy Eyeballs) on one of `group`'s loops.
    /// - Throws: `LayerError.connect` with the reactor's reason.
    static func open(host: String, port: UInt16, group: EventLoopGroup) async throws -> LayerConnection {
        let loop = group.next()
        let start = Deadline.now()
        let channel: any StreamChannel
        do {
            channel = try await Connector(resolver: group.resolver).connect(host: host, port: port, on: loop)
        } catch {
            throw LayerError.connect(.reactor(error))
        }
        return try await started(channel, connectTime: Deadline.now() - start)
    }

    /// Connects, completes the TLS handshake and evaluates trust (all before a request byte is
    /// written) on one of `group`'s loops.
    /// - Throws: `LayerError.connect` with the reactor's or the TLS layer's reason.
    static func openTLS(
        host: String, port: UInt16, group: EventLoopGroup, context: TLSContext, trustManager: ServerTrustManager
    ) async throws -> LayerConnection {
        let loop = group.next()
        let start = Deadline.now()
        let connector = TLSConnector(
            connector: Connector(resolver: group.resolver), context: context, trustManager: trustManager)
        let channel: TLSChannel
        do {
            channel = try await connector.connect(host: host, port: port, on: loop)
        } catch {
            throw LayerError.connect(error)
        }
        return try await started(channel, connectTime: Deadline.now() - start)
    }

    private static func started(_ channel: any StreamChannel, connectTime: Duration) async throws -> LayerConnection {
        try await channel.loop.submit {
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
            if !scheduled { continuation.resume(throwing: LayerError.connection(.reactor(.loopShutDown))) }
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
            try channel.write(requestBuffer[...])
            result.requestWritten = .now()
        } catch {
            fail(.connection(.reactor(error)))
        }
    }

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        guard pending != nil else {
            // Bytes nobody asked for: the connection can no longer be trusted.
            stream.close()
            return
        }
        if result.firstByte == nil { result.firstByte = .now() }
        bytes.withUnsafeBufferPointer { buffer in consume(UnsafeRawBufferPointer(buffer)) }
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        guard pending != nil else { return stream.close() }
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

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
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
        if let tls = channel as? TLSChannel {
            var facts = tls.negotiatedVersion.map { "\($0)" } ?? "TLS"
            facts += tls.isSessionReused ? ", session resumed" : ", full handshake"
            if let protocolName = tls.negotiatedApplicationProtocol { facts += ", ALPN \(protocolName)" }
            result.tls = facts
        }
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
