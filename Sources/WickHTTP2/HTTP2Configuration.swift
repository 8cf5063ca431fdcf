// The HTTP/2 connection's settings and its limits against hostile servers, safe by default.

/// What a client HTTP/2 connection advertises and enforces.
///
/// Every limit is inclusive (exactly N is accepted, N + 1 is an error) and has a default that
/// suits a daemon talking to servers it does not control. The advertised values go out in the
/// client's first SETTINGS frame; the others are enforced without telling the server.
public struct HTTP2Configuration: Sendable, Hashable {
    /// Largest decoded field section (header or trailer block) of one response, in RFC 7541 §4.1
    /// bytes (name + value + 32 per field); advertised as SETTINGS_MAX_HEADER_LIST_SIZE. Larger
    /// is a stream error (`headerListTooLarge`): the HPACK bomb's limit. Default 64 KiB, as the
    /// HTTP/1.1 parser's head limit.
    public var maxHeaderListSize: Int = 65_536
    /// Largest encoded field block (HEADERS plus CONTINUATION fragments, before HPACK decoding).
    /// Larger is a connection error `fieldBlockTooLarge` with ENHANCE_YOUR_CALM, checked as each
    /// fragment arrives, so an endless CONTINUATION stream is cut off. Default 64 KiB.
    public var maxFieldBlockBytes: Int = 65_536
    /// Most CONTINUATION frames in one field block. More is a connection error
    /// `tooManyContinuationFrames` with ENHANCE_YOUR_CALM (the CONTINUATION flood of 2024, made of
    /// tiny or empty frames). Default 32.
    public var maxContinuationFrames: Int = 32
    /// The HPACK dynamic table the server may make this client keep, in HPACK bytes; advertised
    /// as SETTINGS_HEADER_TABLE_SIZE. Default 4,096 (the protocol's default).
    public var headerTableSize: Int = 4096
    /// The HPACK dynamic table this client keeps for its own requests, at most; the server's
    /// SETTINGS_HEADER_TABLE_SIZE can only lower it. Default 4,096.
    public var encoderTableSize: Int = 4096
    /// Largest frame payload this client accepts; advertised as SETTINGS_MAX_FRAME_SIZE
    /// (16,384...16,777,215). Larger frames are a connection error `frameTooLarge`. Default 16,384.
    public var maxFrameSize: Int = 16_384
    /// Each stream's receive window; advertised as SETTINGS_INITIAL_WINDOW_SIZE. It bounds the
    /// bytes of one response the server may send that the consumer has not consumed yet: a slow
    /// reader stops the server at this many. The client reopens it once half is consumed.
    /// Default 1 MiB: with the protocol's 65,535 a 10 MiB download over loopback ran at half
    /// the speed (80 against 166 MiB/s, measured), the server waiting for a WINDOW_UPDATE every
    /// 32 KiB; Go's client uses 4 MiB, Chrome 6 MiB, curl 10 MiB.
    public var initialStreamWindowSize: Int = 1_048_576
    /// The connection's receive window: the bytes of all responses together that the server may
    /// send ahead of the consumers (raised from 65,535 with a WINDOW_UPDATE at the start), and so
    /// what one connection may buffer at most. Default 8 MiB: eight slow readers' windows,
    /// before the others wait.
    public var connectionWindowSize: Int = 8_388_608
    /// Most streams this client keeps open at once, whatever the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS allows (the smaller of the two applies). Default 100.
    public var maxConcurrentStreams: Int = 100
    /// How fast the server may send frames that cost work but carry no response bytes:
    /// SETTINGS, PING, RST_STREAM, PRIORITY, frames of unknown type, empty DATA, HEADERS and
    /// CONTINUATION frames that end nothing, and field blocks for streams that have ended. Faster is a connection error `controlFrameFlood`
    /// with ENHANCE_YOUR_CALM. Default: bursts of 1,000, then 200 a second.
    public var controlFrameRate = HTTP2FrameRateLimit(burst: 1000, perSecond: 200)
    /// How long the server has to acknowledge this client's SETTINGS, counted from the start of
    /// the connection. Later is a connection error `settingsTimeout` with SETTINGS_TIMEOUT
    /// (RFC 9113 §6.5.3): a server that reads nothing is found before requests queue on it.
    /// Default 10 seconds. Must be positive.
    public var settingsAckTimeout: Duration = .seconds(10)
    /// After this long without a frame from the server, the client sends a PING, whether or not
    /// streams are open: an idle pooled connection whose peer vanished (a NAT or load balancer
    /// dropped it, the host died) is found before a request is given to it. nil: no PINGs.
    /// Default 30 seconds, half the session's default idle-connection timeout. Must be positive.
    public var pingInterval: Duration? = .seconds(30)
    /// How long the server has to answer a liveness PING with its ACK. Later is a connection
    /// error `pingTimeout`: the connection closes and its open streams fail. Default 20 seconds.
    /// Must be positive.
    public var pingAckTimeout: Duration = .seconds(20)

    /// The defaults.
    public init() {}
}

/// A token bucket: up to `burst` frames at once, refilled at `perSecond`.
public struct HTTP2FrameRateLimit: Sendable, Hashable {
    /// Frames allowed at once, after a quiet period.
    public var burst: Int
    /// Frames allowed per second, sustained.
    public var perSecond: Int

    /// A limit of `burst` frames at once (1...10^9) and `perSecond` sustained (0...10^9).
    public init(burst: Int, perSecond: Int) {
        precondition(
            burst > 0 && burst <= 1_000_000_000 && perSecond >= 0 && perSecond <= 1_000_000_000,
            "frame rate limit burst \(burst), \(perSecond)/s: each must be at most 10^9")
        self.burst = burst
        self.perSecond = perSecond
    }
}
