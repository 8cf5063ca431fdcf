// Name resolution off the loop threads: getaddrinfo on a small pool of resolver threads.
//
// Why getaddrinfo and not a stub resolver: it honours /etc/hosts, nsswitch.conf and the system's
// RFC 6724 address ordering exactly as every other program on the machine does; a daemon's
// operators expect that. Its only flaw, blocking, is contained by running it on these threads.
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Resolves host names to socket addresses without blocking an event loop.
///
/// Numeric hosts (`127.0.0.1`, `::1`, `[::1]`) are parsed in place and never reach a resolver
/// thread. Names go to one of `threadCount` threads that call `getaddrinfo` (so /etc/hosts is
/// honoured); the result is delivered on the requesting loop. For Happy Eyeballs
/// (`resolveByFamily`) the AAAA and A lookups are two `getaddrinfo` calls, one per family: the
/// thread that takes the job queues the A lookup for another thread and runs the AAAA one, so
/// two threads run them at once, each answer delivered as it comes. A name /etc/hosts lists is
/// looked up in one call instead (`HostsFile` says why).
public final class Resolver: Sendable {
    /// Which addresses one lookup asks for.
    enum Family: Sendable {
        /// Both families in one call, in the system's RFC 6724 order (`AF_UNSPEC`).
        case any
        /// IPv6 only (`AF_INET6`: the AAAA query).
        case ipv6
        /// IPv4 only (`AF_INET`: the A query).
        case ipv4
    }

    /// Looks a name up, blocking. The system's `getaddrinfo` unless a test injects another.
    typealias Lookup =
        @Sendable (_ host: String, _ port: UInt16, _ family: Family) -> Result<[SocketAddress], ReactorError>

    private struct Job: Sendable {
        enum Work: Sendable {
            /// One lookup, its result for `completion`.
            case lookup(Family, completion: @Sendable (Result<[SocketAddress], ReactorError>) -> Void)
            /// RFC 8305 §3's two lookups, or one for a name the hosts file lists.
            case byFamily(answer: @Sendable (ResolverAnswer) -> Void)
        }

        let host: String
        let port: UInt16
        let loop: EventLoop
        let work: Work

        /// Tells the requester the loop shut down.
        func refuse() {
            switch work {
            case .lookup(_, let completion): loop.execute { completion(.failure(.loopShutDown)) }
            case .byFamily(let answer): loop.execute { answer(.all(.failure(.loopShutDown))) }
            }
        }
    }

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    private let lookup: Lookup
    /// Whether the hosts file lists a name (then it is looked up in one call).
    private let listedInHosts: @Sendable (String) -> Bool
    private let queue = Locked(Queue())
    /// A blocking eventfd in semaphore mode: one unit per queued job (or per thread at shutdown).
    private let semaphoreFD: Int32
    private let threads: Locked<[JoinableThread]>

    /// A resolver with `threadCount` threads calling `getaddrinfo`.
    convenience init(threadCount: Int) {
        self.init(
            threadCount: threadCount,
            lookup: { host, port, family in
                Syscalls.getaddrinfo(host: host, port: port, family: family.addressFamily)
            }, listedInHosts: HostsFile.system.lists)
    }

    /// A resolver whose threads call `lookup` and ask `listedInHosts` (tests inject slow or
    /// scripted lookups and their own hosts file; by default no name is listed).
    init(
        threadCount: Int, lookup: @escaping Lookup,
        listedInHosts: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        precondition(threadCount >= 1, "Resolver needs at least one thread")
        self.lookup = lookup
        self.listedInHosts = listedInHosts
        do {
            semaphoreFD = try Syscalls.eventfd(semaphore: true, blocking: true)
        } catch {
            preconditionFailure("Resolver: cannot create its eventfd: \(error)")
        }
        threads = Locked([])
        let started = (0..<threadCount).map { index in
            JoinableThread(name: "wick-resolve-\(index)") { [self] in work() }
        }
        threads.withLock { $0 = started }
    }

    /// Resolves `host` for a stream connection to `port` and calls `completion` on `loop` with
    /// the addresses in the system's preferred order, or `ReactorError.unknownHost` /
    /// `.resolutionFailed`. If `loop` has shut down by then, the result is dropped.
    public func resolve(
        host: String, port: UInt16, on loop: EventLoop,
        _ completion: @escaping @Sendable (Result<[SocketAddress], ReactorError>) -> Void
    ) {
        if let address = SocketAddress(numericHost: host, port: port) {
            loop.execute { completion(.success([address])) }
            return
        }
        enqueue([Job(host: host, port: port, loop: loop, work: .lookup(.any, completion: completion))])
    }

    /// Resolves `host` with one lookup per family, AAAA first, and calls `answer` on `loop` with
    /// each as it arrives: `.ipv6` and `.ipv4`, each with its addresses or
    /// `ReactorError.unknownHost` / `.resolutionFailed`. A numeric host is answered at once, and
    /// a name /etc/hosts lists after one lookup for both families, as `.all`. If `loop` has shut
    /// down by then, the answers are dropped.
    public func resolveByFamily(
        host: String, port: UInt16, on loop: EventLoop, _ answer: @escaping @Sendable (ResolverAnswer) -> Void
    ) {
        if let address = SocketAddress(numericHost: host, port: port) {
            loop.execute { answer(.all(.success([address]))) }
            return
        }
        enqueue([Job(host: host, port: port, loop: loop, work: .byFamily(answer: answer))])
    }

    /// Queues `jobs` for the threads, or fails each with `.loopShutDown` once stopping.
    private func enqueue(_ jobs: [Job]) {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.stopping else { return false }
            queue.jobs += jobs
            return true
        }
        guard accepted else {
            for job in jobs { job.refuse() }
            return
        }
        post(UInt64(jobs.count))
    }

    /// Stops the threads after the lookups they are running; queued lookups are dropped.
    func shutdown() {
        let threads = queue.withLock { queue -> [JoinableThread] in
            guard !queue.stopping else { return [] }
            queue.stopping = true
            queue.jobs.removeAll()
            return self.threads.withLock { threads in
                defer { threads.removeAll() }
                return threads
            }
        }
        guard !threads.isEmpty else { return }
        post(UInt64(threads.count))
        for thread in threads { thread.join() }
        try? Syscalls.close(semaphoreFD)
    }

    private func post(_ count: UInt64) {
        do {
            _ = try Syscalls.eventfdWrite(semaphoreFD, count)
        } catch {
            preconditionFailure("Resolver: cannot post to its eventfd: \(error)")
        }
    }

    private func work() {
        while true {
            do {
                _ = try Syscalls.eventfdRead(semaphoreFD)
            } catch {
                preconditionFailure("Resolver: waiting on its eventfd: \(error)")
            }
            let next = queue.withLock { queue -> Job? in
                queue.stopping || queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
            }
            guard let job = next else {
                if queue.withLock({ $0.stopping }) { return }
                continue
            }
            run(job)
        }
    }

    private func run(_ job: Job) {
        switch job.work {
        case .lookup(let family, let completion):
            let result = lookup(job.host, job.port, family)
            job.loop.execute { completion(result) }
        case .byFamily(let answer):
            guard !listedInHosts(job.host) else {
                let result = lookup(job.host, job.port, .any)
                job.loop.execute { answer(.all(result)) }
                return
            }
            // RFC 8305 §3: the AAAA query first, the A query right after it, on another thread.
            enqueue([
                Job(
                    host: job.host, port: job.port, loop: job.loop,
                    work: .lookup(.ipv4) { answer(.ipv4($0)) })
            ])
            let result = lookup(job.host, job.port, .ipv6)
            job.loop.execute { answer(.ipv6(result)) }
        }
    }
}

extension Resolver.Family {
    /// The `ai_family` hint of this lookup.
    var addressFamily: Int32 {
        switch self {
        case .any: AF_UNSPEC
        case .ipv6: AF_INET6
        case .ipv4: AF_INET
        }
    }
}
