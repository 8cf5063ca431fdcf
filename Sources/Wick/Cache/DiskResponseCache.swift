// A response cache kept in files, so stored responses survive a restart: memory for reads,
// atomic file writes behind them on a queue of its own.
import Dispatch
public import FoundationEssentials
import WickReactor

/// A thread-safe `ResponseCache` that keeps its responses in `directory` as well as in memory,
/// so a restarted process finds them again.
///
/// - **Reads never touch the disk.** Every response is also held in memory (the budget
///   bounds both), because a look-up can happen on an event loop, where no file I/O may run.
///   The files are read once, in `init`.
/// - **Writes are atomic and behind.** A store or removal updates memory at once and queues
///   the file's new content (the URL's responses, or its deletion) on a serial queue of the
///   cache's own; pending writes per URL are coalesced, so a burst of stores costs one write
///   each. A file is written to a temporary name and renamed, so a reader (this process after a
///   restart, or another process) sees the old file or the new one, never half of one. A write
///   that fails (the disk full, the directory gone) leaves the old file or none and is counted
///   in `failedWrites`; memory still serves the response.
/// - **A corrupt or truncated file is a miss.** Files carry a checksum
///   (`DiskResponseCacheFile`); one that does not check out is deleted at `init` and counted
///   in `discardedFiles`, never served.
/// - **Bounded.** `maximumBytes` as `MemoryResponseCache` counts it, least recently used first
///   out (its file deleted with it); at `init` files are taken newest first (by modification
///   time) until the budget is full.
public final class DiskResponseCache: ResponseCache {
    /// The default budget: 64 MiB.
    public static let defaultMaximumBytes = 64 << 20

    /// Where the files are.
    public let directory: URL
    /// The budget for every stored response together.
    public let maximumBytes: Int
    /// The largest response stored.
    public let maximumEntryBytes: Int

    /// The responses in use order, the writes not yet done, and the counters.
    private struct State: Sendable {
        var store = LRUStore()
        /// Per file name: the responses to write, or nil to delete the file.
        var pending: [String: PendingWrite] = [:]
        var isFlushScheduled = false
        var failedWrites = 0
    }

    /// A queued change of one file.
    private struct PendingWrite: Sendable {
        var key: String
        var responses: [CachedResponse]?
    }

    private let state: Locked<State>
    private let writer = DispatchQueue(label: "wick.disk-response-cache")
    /// Files that did not check out at `init`.
    public let discardedFiles: Int

    /// A cache over `directory` (created, mode 0700, when missing), loaded with the responses
    /// its files hold.
    /// - Parameter directory: where the responses' files are kept.
    /// - Parameter maximumBytes: the budget (at least 1).
    /// - Parameter maximumEntryBytes: the largest response kept; nil: a tenth of the budget.
    /// - Throws: `WickError.responseCacheUnavailable` when the directory cannot be created or
    ///   listed.
    public init(directory: URL, maximumBytes: Int = defaultMaximumBytes, maximumEntryBytes: Int? = nil)
        throws(WickError)
    {
        precondition(maximumBytes >= 1, "DiskResponseCache: maximumBytes must be positive")
        self.directory = directory
        self.maximumBytes = maximumBytes
        self.maximumEntryBytes = min(maximumEntryBytes ?? max(1, maximumBytes / 10), maximumBytes)
        let files = FileManager.default
        let names: [String]
        do {
            try files.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            names = try files.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".wickcache") }
        } catch {
            throw .responseCacheUnavailable(path: directory.path, reason: "\(error)")
        }
        var loaded: [(date: Date, key: String, responses: [CachedResponse])] = []
        var discarded = 0
        for name in names {
            let url = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), let (key, responses) = DiskResponseCacheFile.decode(data),
                DiskResponseCacheFile.fileName(for: key) == name
            else {
                discarded += 1
                try? files.removeItem(at: url)
                continue
            }
            let modified =
                ((try? files.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
            loaded.append((modified, key, responses))
        }
        var store = LRUStore()
        var evicted: [String] = []
        // Newest first until the budget is full; then insert oldest first so use order matches.
        var kept: [(key: String, responses: [CachedResponse])] = []
        var total = 0
        for file in loaded.sorted(by: { $0.date > $1.date }) {
            let cost = file.responses.reduce(0) { $0 + $1.cost }
            if total + cost <= maximumBytes {
                kept.append((file.key, file.responses))
                total += cost
            } else {
                evicted.append(file.key)
            }
        }
        for file in kept.reversed() { store.insertMostRecent(file.key, variants: file.responses) }
        for key in evicted {
            try? files.removeItem(at: directory.appendingPathComponent(DiskResponseCacheFile.fileName(for: key)))
        }
        discardedFiles = discarded
        state = Locked(State(store: store))
    }

    /// The bytes the stored responses cost now.
    public var currentBytes: Int { state.withLock { $0.store.totalCost } }
    /// How many URLs have stored responses.
    public var count: Int { state.withLock { $0.store.entries.count } }
    /// File writes that failed since `init` (see the type's comment).
    public var failedWrites: Int { state.withLock { $0.failedWrites } }

    /// The responses stored for `url`, from memory; marks the URL used.
    public func cachedResponses(for url: URL) -> [CachedResponse] {
        state.withLock { state in
            guard !state.store.entries.isEmpty else { return [] }
            return state.store.use(ResponseCacheKey.of(url))?.variants ?? []
        }
    }

    /// Stores `response` (replacing its variant) in memory and queues its file; evicts least
    /// recently used URLs, and their files, until the budget holds. Refuses a response over
    /// `maximumEntryBytes`.
    public func store(_ response: CachedResponse) {
        guard response.cost <= maximumEntryBytes else { return }
        let key = ResponseCacheKey.of(response.url)
        state.withLock { state in
            var variants = state.store.remove(key)?.variants ?? []
            variants.removeAll { $0.varyingRequestFields == response.varyingRequestFields }
            variants.append(response)
            state.store.insertMostRecent(key, variants: variants)
            queue(key, variants, in: &state)
            while state.store.totalCost > maximumBytes, let oldest = state.store.oldestKey, oldest != key {
                state.store.remove(oldest)
                queue(oldest, nil, in: &state)
            }
        }
    }

    /// Forgets the responses stored for `url` and queues its file's deletion.
    public func removeCachedResponses(for url: URL) {
        let key = ResponseCacheKey.of(url)
        state.withLock { state in
            guard state.store.remove(key) != nil else { return }
            queue(key, nil, in: &state)
        }
    }

    /// Forgets every stored response and queues the deletion of every file.
    public func removeAllCachedResponses() {
        state.withLock { state in
            for key in state.store.entries.keys { queue(key, nil, in: &state) }
            state.store = LRUStore()
        }
    }

    /// Returns once every change made before the call is on disk (or has failed).
    public func synchronize() {
        writer.sync {}
    }

    /// Records a file change and schedules a flush when none is scheduled. Under the lock.
    private func queue(_ key: String, _ responses: [CachedResponse]?, in state: inout State) {
        state.pending[DiskResponseCacheFile.fileName(for: key)] = PendingWrite(key: key, responses: responses)
        guard !state.isFlushScheduled else { return }
        state.isFlushScheduled = true
        writer.async { [self] in flush() }
    }

    /// Writes or deletes every pending file, on the writer queue.
    private func flush() {
        let pending = state.withLock { state in
            state.isFlushScheduled = false
            defer { state.pending = [:] }
            return state.pending
        }
        var failures = 0
        for (name, write) in pending {
            let url = directory.appendingPathComponent(name)
            guard let responses = write.responses else {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            do {
                guard let bytes = DiskResponseCacheFile.encode(key: write.key, responses: responses) else {
                    failures += 1
                    continue
                }
                try bytes.write(to: url, options: .atomic)
            } catch {
                failures += 1
            }
        }
        if failures > 0 { state.withLock { $0.failedWrites += failures } }
    }
}
