// Per-connection socket settings: TCP options and the channel's write-buffer bounds.

/// Settings applied to each connection a `Connector` opens. Every bound is named here.
public struct SocketOptions: Sendable, Hashable {
    /// TCP keep-alive probing: after `idle` without traffic, send a probe every `interval`;
    /// after `count` unanswered probes the connection fails with `ReactorError.timedOut`.
    public struct KeepAlive: Sendable, Hashable {
        /// Quiet time before the first probe (whole seconds, at least 1).
        public var idle: Duration
        /// Time between probes (whole seconds, at least 1).
        public var interval: Duration
        /// Unanswered probes before the connection is dropped.
        public var count: Int

        /// Probing after `idle`, every `interval`, `count` times.
        public init(idle: Duration = .seconds(60), interval: Duration = .seconds(10), count: Int = 6) {
            self.idle = idle
            self.interval = interval
            self.count = count
        }
    }

    /// `TCP_NODELAY`: send small writes at once (Nagle off). On by default: an HTTP client's
    /// request head is small and latency matters more than packet count. Ignored for Unix sockets.
    public var noDelay: Bool
    /// Keep-alive probes, off (`nil`) by default. Ignored for Unix sockets.
    public var keepAlive: KeepAlive?
    /// When queued bytes exceed this, the channel reports itself not writable. 64 KiB default.
    public var highWatermark: Int
    /// When queued bytes fall to this or below, the channel is writable again. 16 KiB default.
    public var lowWatermark: Int
    /// The most bytes a channel queues; a write that would exceed it throws
    /// `ReactorError.writeBufferFull` instead of buffering without bound. 4 MiB default.
    public var maximumBufferedBytes: Int
    /// The local IP literal TCP connections are made from (`bind(2)` before `connect`); nil lets
    /// the kernel choose. A connection to an address of the other family fails its attempt with
    /// `ReactorError.invalidAddress`. Ignored for Unix sockets.
    public var sourceAddress: String?
    /// The local ports TCP connections may use, tried in order until one is free (curl's
    /// `--local-port`); all in use fails the attempt with `ReactorError.addressInUse`. nil lets
    /// the kernel choose. Ignored for Unix sockets.
    public var sourcePorts: ClosedRange<UInt16>?

    /// The defaults described on each property.
    public init(
        noDelay: Bool = true,
        keepAlive: KeepAlive? = nil,
        highWatermark: Int = 64 * 1024,
        lowWatermark: Int = 16 * 1024,
        maximumBufferedBytes: Int = 4 * 1024 * 1024
    ) {
        self.noDelay = noDelay
        self.keepAlive = keepAlive
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
        self.maximumBufferedBytes = maximumBufferedBytes
        sourceAddress = nil
        sourcePorts = nil
        validate()
    }

    /// Traps unless `0 <= lowWatermark <= highWatermark <= maximumBufferedBytes` (a
    /// programming error: the bounds would contradict each other). Checked again when a
    /// channel is opened, since the properties are mutable.
    func validate() {
        precondition(
            0 <= lowWatermark && lowWatermark <= highWatermark, "SocketOptions: need 0 <= lowWatermark <= highWatermark"
        )
        precondition(highWatermark <= maximumBufferedBytes, "SocketOptions: need highWatermark <= maximumBufferedBytes")
        precondition(
            sourceAddress.map { SocketAddress(numericHost: $0, port: 0) != nil } ?? true,
            "SocketOptions: sourceAddress \(sourceAddress ?? "") is not an IP literal")
    }
}
