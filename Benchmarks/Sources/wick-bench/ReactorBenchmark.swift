// The reactor benchmark: loopback round trips through a WickReactor channel beside a blocking
// socket, and the latency of waking a loop with `execute` beside a bare eventfd wake-up.
import CBenchSupport
import Dispatch
import Foundation
import Synchronization
import WickReactor

/// 64-byte echo round trips (reactor vs blocking socket) and cross-thread wake-ups.
struct ReactorBenchmark {
    /// Bytes per message.
    static let messageSize = 64
    /// Round trips per client in all.
    static let roundTrips = 20_000
    /// Wake-ups measured per mechanism.
    static let wakeUps = 5_000
    /// Rounds the round trips are split into, alternating the two clients.
    static let rounds = 10

    /// Whether the echo threads and the clients can each have a CPU of their own.
    static var pinning: Bool { ProcessInfo.processInfo.activeProcessorCount >= 2 }

    func run() throws -> ResultTable {
        var table = ResultTable(
            suite: "reactor",
            title: "Reactor (loopback, latency in µs, lower is better)",
            columns: [
                "workload", "Wick p50", "Wick p99", "peer", "peer p50", "peer p99", "speed ratio (p50)",
                "Wick allocs/op",
            ])
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let loop = group.loops[0]
        if Self.pinning {
            _ = loop.execute { _ = bench_pin_current_thread(1) }
            _ = bench_pin_current_thread(1)
        }

        let server = try EchoServer(connections: 2, cpu: Self.pinning ? 0 : nil)
        let blocking = try BlockingEchoClient(port: server.port, messageSize: Self.messageSize)
        let wick = try Self.connect(port: server.port, loop: loop, resolver: group.resolver)

        var wickLatencies: [Double] = []
        var blockingLatencies: [Double] = []
        var ratios: [Double] = []
        let perRound = Self.roundTrips / Self.rounds
        // Warm both paths up.
        var warmUp: [Double] = []
        blocking.roundTrips(500, into: &warmUp)
        _ = Self.roundTrips(wick, count: 500)
        let allocationsBefore = AllocationCounter.allocations
        _ = Self.roundTrips(wick, count: 2000)
        let roundTripAllocations = Double(AllocationCounter.allocations - allocationsBefore) / 2000
        for _ in 0..<Self.rounds {
            var blockingRound: [Double] = []
            blockingRound.reserveCapacity(perRound)
            blocking.roundTrips(perRound, into: &blockingRound)
            let wickRound = Self.roundTrips(wick, count: perRound)
            ratios.append(median(blockingRound) / median(wickRound))
            blockingLatencies += blockingRound
            wickLatencies += wickRound
        }
        wickLatencies.sort()
        blockingLatencies.sort()
        table.rows.append([
            "\(Self.messageSize)-byte echo round trip (\(Format.grouped(Self.roundTrips)) each)",
            Format.fixed(percentile(wickLatencies, 0.5) / 1000, 1),
            Format.fixed(percentile(wickLatencies, 0.99) / 1000, 1),
            "blocking socket loop",
            Format.fixed(percentile(blockingLatencies, 0.5) / 1000, 1),
            Format.fixed(percentile(blockingLatencies, 0.99) / 1000, 1),
            Format.ratio(median(ratios)),
            Format.fixed(roundTripAllocations, 2),
        ])
        _ = loop.execute { wick.value.channel.close() }

        let executeAllocationsBefore = AllocationCounter.allocations
        let executeLatencies = Self.executeWakeUps(loop).sorted()
        let executeAllocations = Double(AllocationCounter.allocations - executeAllocationsBefore) / Double(Self.wakeUps)
        let eventfdLatencies = try EventFDWaker.wakeUps(Self.wakeUps, cpu: Self.pinning ? 1 : nil).sorted()
        table.rows.append([
            "cross-thread `execute` wake-up (\(Format.grouped(Self.wakeUps)) each)",
            Format.fixed(percentile(executeLatencies, 0.5) / 1000, 1),
            Format.fixed(percentile(executeLatencies, 0.99) / 1000, 1),
            "bare eventfd + epoll_wait thread",
            Format.fixed(percentile(eventfdLatencies, 0.5) / 1000, 1),
            Format.fixed(percentile(eventfdLatencies, 0.99) / 1000, 1),
            Format.ratio(percentile(eventfdLatencies, 0.5) / percentile(executeLatencies, 0.5)),
            Format.fixed(executeAllocations, 2),
        ])
        table.notes = [
            "Echo server: a blocking thread per connection on 127.0.0.1\(Self.pinning ? ", pinned to CPU 0; the clients (the event loop's thread, the blocking loop) pinned to CPU 1" : "")."
                + " TCP_NODELAY on both ends. The round trips run in \(Self.rounds) alternating rounds; p50/p99 are over all of them, the ratio is the median of the per-round p50 ratios (peer ÷ Wick).",
            "Wick: the next message is written from `channelRead` on the loop, so each round trip is epoll_wait → read → gathered write at the end of the iteration. Blocking: send, then read until the 64 bytes are back.",
            "Wake-up: time from `loop.execute` on the main thread to the task running on the idle loop (eventfd write → epoll_wait returns → inbox drained); the peer is a thread blocked in epoll_wait on an eventfd. 100 µs pause between samples so the loop is asleep each time; the waking thread shares the sleeper's CPU for both.",
            "Allocations are counted process-wide over 2,000 extra round trips (only the Wick client runs then) and over the wake-up loop: per round trip, or per `execute` including its closure.",
        ]
        return table
    }

    /// Connects a `ReactorEchoClient` to 127.0.0.1:`port` on `loop`.
    private static func connect(port: UInt16, loop: EventLoop, resolver: Resolver) throws -> LoopBound<
        ReactorEchoClient
    > {
        let result = Mutex<Result<LoopBound<ReactorEchoClient>, ReactorError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let address = SocketAddress(numericHost: "127.0.0.1", port: port)!
        Connector(resolver: resolver).connect(to: address, on: loop) { outcome in
            let client = outcome.map { LoopBound(ReactorEchoClient(channel: $0, messageSize: messageSize), loop: loop) }
            result.withLock { $0 = client }
            ready.signal()
        }
        ready.wait()
        return try result.withLock { $0! }.get()
    }

    /// Runs `count` round trips on the loop and waits for their latencies.
    private static func roundTrips(_ client: LoopBound<ReactorEchoClient>, count: Int) -> [Double] {
        let result = Mutex<[Double]>([])
        let finished = DispatchSemaphore(value: 0)
        let accepted = client.loop.execute {
            client.value.roundTrips(count) { latencies in
                result.withLock { $0 = latencies }
                finished.signal()
            }
        }
        precondition(accepted, "the loop refused the round-trip task")
        finished.wait()
        return result.withLock { $0 }
    }

    /// Latencies from `execute` on this thread to the task running on `loop`.
    private static func executeWakeUps(_ loop: EventLoop) -> [Double] {
        let latencies = Mutex<[Double]>([])
        latencies.withLock { $0.reserveCapacity(wakeUps) }
        let ran = DispatchSemaphore(value: 0)
        for _ in 0..<wakeUps {
            usleep(100)
            let start = monotonicNanoseconds()
            let accepted = loop.execute {
                let elapsed = Double(monotonicNanoseconds() - start)
                latencies.withLock { $0.append(elapsed) }
                ran.signal()
            }
            precondition(accepted, "the loop refused an execute task")
            ran.wait()
        }
        return latencies.withLock { $0 }
    }
}
