// Wick's side of the reactor benchmark: a channel delegate that sends a message, waits for its
// echo, and sends the next, all on the channel's event loop.
import WickReactor

/// Round trips through a reactor channel. Lives on its channel's loop; the only things that
/// cross threads are the `Sendable` closures it is given and the latency array it hands back.
final class ReactorEchoClient: ChannelDelegate {
    let channel: Channel
    private let message: [UInt8]
    private var remaining = 0
    private var received = 0
    private var start: UInt64 = 0
    private var latencies: [Double] = []
    private var done: (@Sendable ([Double]) -> Void)?

    /// Starts reading on `channel`; call on its loop.
    init(channel: Channel, messageSize: Int) {
        self.channel = channel
        message = (0..<messageSize).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        channel.start(delegate: self)
    }

    /// Performs `count` round trips, then calls `done` (on the loop) with their latencies in
    /// nanoseconds. Call on the loop.
    func roundTrips(_ count: Int, done: @escaping @Sendable ([Double]) -> Void) {
        precondition(count > 0 && self.done == nil, "roundTrips(\(count)) while a batch is running")
        remaining = count
        latencies = []
        latencies.reserveCapacity(count)
        self.done = done
        send()
    }

    private func send() {
        start = monotonicNanoseconds()
        do {
            try channel.write(message)
        } catch {
            fatalError("reactor write failed: \(error)")
        }
    }

    func channelRead(_ channel: Channel, bytes: Span<UInt8>) {
        received += bytes.count
        guard received >= message.count else { return }
        precondition(received == message.count, "the echo returned more than one message")
        received = 0
        latencies.append(Double(monotonicNanoseconds() - start))
        remaining -= 1
        if remaining > 0 {
            send()
        } else if let done {
            self.done = nil
            done(latencies)
        }
    }

    func channelClosed(_ channel: Channel, error: ReactorError?) {
        if let error, done != nil { fatalError("the benchmark channel closed: \(error)") }
    }
}
