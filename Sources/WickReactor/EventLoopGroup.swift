// A fixed set of event loops, each on its own thread, plus the resolver they share.
import Synchronization

/// N event loops on N threads, handed out round-robin, and the `Resolver` they share.
///
/// Create one per process (or per subsystem) and call `shutdownGracefully()` before it goes away.
public final class EventLoopGroup: Sendable {
    /// How a group is built. Every bound is here, named.
    public struct Configuration: Sendable {
        /// The number of loop threads. Defaults to `defaultThreadCount`.
        public var threadCount: Int
        /// Bytes each loop's shared read buffer holds: the most one `read` delivers. 64 KiB
        /// by default (a TLS record is at most ~16 KiB; 64 KiB amortises syscalls on bulk bodies).
        public var readBufferSize: Int
        /// The most readiness events one `epoll_wait` returns (more are returned by the next).
        public var maximumEventsPerWait: Int
        /// Threads that run blocking `getaddrinfo` calls. Defaults to 2.
        public var resolverThreadCount: Int
        /// The loops' names (and thread names, as shown by `top -H`): `<name>-<index>`. The
        /// kernel keeps 15 bytes of a thread name. Defaults to `wick-loop`.
        public var name: String
        /// Busy polling: how long a loop keeps asking the kernel for readiness without sleeping
        /// (`epoll_wait` with a zero timeout) before each wait that would sleep, and how long a
        /// caller waiting inline for a response polls before it sleeps. A response that comes
        /// within it is read by a running thread instead of one the scheduler must wake, which
        /// cuts a sequential request's latency (about half on a 2-core VM against a local
        /// server, where the sleep and wake-up are most of a request's kernel time). The cost is
        /// CPU: a loop with traffic at least this often uses its core whole, so give the loops
        /// cores of their own (a polling loop on a core shared with the daemon's own threads
        /// takes time from them). An idle loop polls once for this long, then sleeps.
        /// `.zero` (the default) never polls. Must not be negative.
        public var busyPollDuration: Duration

        /// The defaults described on each property.
        public init(
            threadCount: Int = EventLoopGroup.defaultThreadCount,
            readBufferSize: Int = 64 * 1024,
            maximumEventsPerWait: Int = 256,
            resolverThreadCount: Int = 2,
            name: String = "wick-loop",
            busyPollDuration: Duration = .zero
        ) {
            self.name = name
            self.busyPollDuration = busyPollDuration
            self.threadCount = threadCount
            self.readBufferSize = readBufferSize
            self.maximumEventsPerWait = maximumEventsPerWait
            self.resolverThreadCount = resolverThreadCount
        }
    }

    /// The default number of loops: `min(2, cores)`. An HTTP client inside a daemon on a small
    /// machine shares the CPU with the daemon's own work; one loop multiplexes thousands of
    /// connections, and a second keeps TLS handshakes (the CPU-heavy part) from stalling every
    /// other connection. More loops only help when TLS or bulk decoding saturates two cores.
    public static var defaultThreadCount: Int {
        Swift.max(1, Swift.min(2, ProcessorCount.online))
    }

    /// The loops, in creation order.
    public let loops: [EventLoop]
    /// The resolver that turns host names into addresses off the loop threads.
    public let resolver: Resolver
    private let threads: Locked<[JoinableThread]>
    private let cursor = Atomic<Int>(0)
    private let isShutDown = Atomic<Bool>(false)

    /// Starts `configuration.threadCount` loops and the resolver's threads.
    /// Throws `ReactorError` if epoll or eventfd descriptors cannot be created.
    public init(configuration: Configuration = Configuration()) throws(ReactorError) {
        precondition(configuration.threadCount >= 1, "EventLoopGroup needs at least one thread")
        precondition(configuration.readBufferSize >= 1, "readBufferSize must be positive")
        precondition(configuration.maximumEventsPerWait >= 1, "maximumEventsPerWait must be positive")
        precondition(configuration.busyPollDuration >= .zero, "busyPollDuration must not be negative")
        var loops: [EventLoop] = []
        for index in 0..<configuration.threadCount {
            loops.append(
                try EventLoop(
                    name: "\(configuration.name)-\(index)",
                    readBufferSize: configuration.readBufferSize,
                    maximumEventsPerWait: configuration.maximumEventsPerWait,
                    busyPollDuration: configuration.busyPollDuration))
        }
        self.loops = loops
        self.resolver = Resolver(threadCount: configuration.resolverThreadCount)
        var threads: [JoinableThread] = []
        for loop in loops {
            threads.append(JoinableThread(name: loop.name) { loop.run() })
        }
        self.threads = Locked(threads)
        // Wait until every loop knows its thread, so `inEventLoop` is exact from the first task.
        for loop in loops { loop.waitUntilStarted() }
    }

    /// Starts a group of `threadCount` loops with the other settings at their defaults.
    public convenience init(threadCount: Int) throws(ReactorError) {
        try self.init(configuration: Configuration(threadCount: threadCount))
    }

    /// The next loop, round-robin. Thread-safe.
    public func next() -> EventLoop {
        loops[cursor.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Shuts every loop down and joins the threads: each loop closes its channels (their
    /// delegates see `.loopShutDown`), fails connects in flight, runs every task accepted before
    /// the end, cancels its timers and closes its descriptors; then the resolver's threads stop
    /// (a `getaddrinfo` already running is waited for). Blocks; must not be called on a loop
    /// thread. Calling it again does nothing.
    public func shutdownGracefully() {
        for loop in loops {
            precondition(!loop.isLoopThread, "shutdownGracefully() called on \(loop.name), which would join itself")
        }
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for loop in loops { loop.initiateShutdown() }
        let threads = self.threads.withLock { threads in
            defer { threads.removeAll() }
            return threads
        }
        for thread in threads { thread.join() }
        resolver.shutdown()
    }
}
