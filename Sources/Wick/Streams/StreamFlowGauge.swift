// The bytes a stream reader holds against its marks: when reading should pause and resume.

/// The bytes one stream reader holds, and whether it is full: full once over the high mark,
/// not full again once at or below the low mark (hysteresis, so reading does not flap).
struct StreamFlowGauge {
    let policy: DataStreamRequest.BufferingPolicy
    /// Bytes received and not yet handled.
    private(set) var bytes = 0
    /// The most `bytes` ever was.
    private(set) var peakBytes = 0
    private(set) var isFull = false

    init(policy: DataStreamRequest.BufferingPolicy) {
        self.policy = policy
    }

    /// The bytes the reader can take before it passes its high mark (0 past it).
    var room: Int { max(0, policy.highWaterMark - bytes) }

    /// Counts `count` more bytes held. Returns true when this made the reader full.
    mutating func added(_ count: Int) -> Bool {
        bytes += count
        peakBytes = max(peakBytes, bytes)
        guard !isFull, bytes > policy.highWaterMark else { return false }
        isFull = true
        return true
    }

    /// Counts `count` bytes handled. Returns true when this made a full reader take bytes again.
    mutating func removed(_ count: Int) -> Bool {
        precondition(count <= bytes, "StreamFlowGauge: \(count) bytes handled while \(bytes) were held")
        bytes -= count
        guard isFull, bytes <= policy.lowWaterMark else { return false }
        isFull = false
        return true
    }

    /// Forgets every byte held (the reader went away). Returns true when the reader was full.
    mutating func cleared() -> Bool {
        bytes = 0
        defer { isFull = false }
        return isFull
    }
}
