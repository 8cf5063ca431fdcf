// Where one transfer reports its progress: its own meter or bar, or its lane of `-Z`'s meter.

/// Receives one transfer's progress, from that transfer's task.
protocol TransferProgressSink {
    /// The transfer begins, resuming at `resumedFrom` (nil: from the start) with a request
    /// body of `uploadSize` bytes (nil: none).
    func begin(resumedFrom: Int?, uploadSize: Int?)
    /// The counts so far.
    func update(_ progress: TransferProgress)
    /// The transfer has ended, whether it succeeded or not.
    func finish()
}
