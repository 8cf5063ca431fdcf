// Opens a CONNECT tunnel through an HTTP or HTTPS proxy on a connected stream, before TLS to the origin.
import WickCore
import WickHTTP1
import WickReactor
import WickTLS

/// Asks an HTTP proxy for a tunnel to `host:port` (RFC 9110 §9.3.6) on a connected stream that
/// has not been started (the socket, or for an HTTPS proxy the TLS channel to it): it writes
/// `CONNECT host:port HTTP/1.1` with `Host` and, when the proxy has credentials,
/// `Proxy-Authorization`, and reads the answer with `HTTPResponseParser`.
///
/// Rules:
/// - Interim 1xx answers are skipped. A 2xx final answer opens the tunnel: the stream is handed
///   back unstarted (`TLSCarrier.detachDelegate()`), so TLS can start it, and the completion
///   gets it.
/// - Any other final status fails with `ProxyTunnelError.refused`, naming the status, whether
///   credentials were sent, and the proxy. Its body is not read: the channel is closed.
/// - Bytes after the 2xx head (in the same read) are `unexpectedBytes`: the client has not
///   spoken yet, so nothing in the tunnel can be an answer to it, and dropping them would hide
///   a confused or hostile proxy.
/// - An EOF or a close before the answer (a TLS failure of an HTTPS proxy's stream among them)
///   is `closedBeforeResponse`; a parse error is
///   `invalidResponse`; no answer by `deadline` is `timedOut`.
/// - On every failure the channel is closed, and the completion runs exactly once, on the loop.
///
/// Thread ownership (the proof behind `@unchecked Sendable`): every `var` is read and written
/// only on `channel.loop`'s thread: `open` runs there, the stream calls the delegate there, and
/// the timer is scheduled there. `Sendable` only lets the timer closure carry the tunnel.
final class ProxyTunnel: StreamChannelDelegate, @unchecked Sendable {
    private let channel: any TLSCarrier
    private let proxy: ProxyConfiguration
    private let started: Deadline
    private var parser = HTTPResponseParser()
    private var completion: ((Result<any TLSCarrier, StreamChannelError>) -> Void)?
    private var timer: Scheduled?

    private init(
        channel: any TLSCarrier, proxy: ProxyConfiguration,
        completion: @escaping (Result<any TLSCarrier, StreamChannelError>) -> Void
    ) {
        self.channel = channel
        self.proxy = proxy
        self.started = .now()
        self.completion = completion
    }

    /// Sends CONNECT for `authority` (`host:port`, IPv6 bracketed) on `channel`, a connected and
    /// unstarted stream to `proxy`, and calls `completion` once, on the loop, with the stream
    /// (open, unstarted, the tunnel established) or the failure: `.proxy(ProxyTunnelError)`, or
    /// `.reactor` when the request cannot be written (`.invalidAddress` when the authority or
    /// the credentials cannot be encoded). Call on the stream's loop.
    static func open(
        over channel: any TLSCarrier, authority: String, proxy: ProxyConfiguration, deadline: Deadline,
        _ completion: @escaping (Result<any TLSCarrier, StreamChannelError>) -> Void
    ) {
        channel.loop.preconditionInEventLoop()
        let tunnel = ProxyTunnel(channel: channel, proxy: proxy, completion: completion)
        var headers = HTTPHeaders()
        if let credentials = proxy.credentials {
            headers.add(name: "Proxy-Authorization", value: credentials.authorizationValue)
        }
        let head = HTTPRequestHead(method: .connect, target: .authority(authority), host: authority, headers: headers)
        var bytes: [UInt8] = []
        do throws(HTTPRequestEncodingError) {
            try HTTPRequestEncoder.encodeHead(head, into: &bytes)
        } catch {
            channel.close()
            return completion(.failure(.reactor(.invalidAddress("CONNECT \(authority): \(error)"))))
        }
        tunnel.parser.expectResponse(to: .connect)
        tunnel.timer = channel.loop.schedule(at: deadline) { [weak tunnel] in tunnel?.deadlinePassed() }
        channel.start(delegate: tunnel)
        guard tunnel.completion != nil else { return }  // closed at once: already reported
        do {
            try channel.write(bytes[...])
        } catch {
            tunnel.fail(.reactor(error))
        }
    }

    // MARK: - Channel events

    func streamRead(_ stream: any StreamChannel, bytes: Span<UInt8>) {
        guard completion != nil else { return }
        // SAFETY: `buffer` is the stream's read buffer, valid only inside this closure; the parser
        // reads it during `parse` and keeps what it needs in its own storage, so no pointer outlives
        // the closure.
        bytes.withUnsafeBufferPointer { buffer in
            var input = UnsafeRawBufferPointer(buffer)
            while completion != nil {
                let step: HTTPParseStep
                do throws(HTTPParseError) {
                    step = try parser.parse(input)
                } catch {
                    return fail(.proxy(.invalidResponse(proxy: proxy.authority, reason: error.description)))
                }
                // SAFETY: the parser consumes at most input.count bytes, so step.consumed <=
                // input.count and the rest is a slice of the same buffer.
                input = UnsafeRawBufferPointer(rebasing: input[step.consumed...])
                switch step.event {
                case .needMoreData:
                    return
                case .informationalHead:
                    continue
                case .switchingProtocols(let head) where head.status.rawValue / 100 == 2:
                    guard input.isEmpty else {
                        return fail(.proxy(.unexpectedBytes(proxy: proxy.authority, count: input.count)))
                    }
                    return succeed()
                case .switchingProtocols(let head), .head(let head):
                    return fail(
                        .proxy(
                            .refused(
                                proxy: proxy.authority, status: Int(head.status.rawValue), reason: head.reasonPhrase,
                                credentialsSent: proxy.credentials != nil)))
                case .body, .trailers, .end:
                    preconditionFailure("ProxyTunnel: \(step.event) before the CONNECT answer's head")
                }
            }
        }
    }

    func streamReadEOF(_ stream: any StreamChannel) {
        fail(.proxy(.closedBeforeResponse(proxy: proxy.authority)))
    }

    func streamClosed(_ stream: any StreamChannel, error: StreamChannelError?) {
        fail(.proxy(.closedBeforeResponse(proxy: proxy.authority)))
    }

    // MARK: - Outcomes

    private func deadlinePassed() {
        fail(.proxy(.timedOut(proxy: proxy.authority, after: .now() - started)))
    }

    private func succeed() {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        channel.detachDelegate()
        completion(.success(channel))
    }

    /// Reports `error` unless an outcome was reported already, and closes the channel.
    private func fail(_ error: StreamChannelError) {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        channel.close()
        completion(.failure(error))
    }
}
