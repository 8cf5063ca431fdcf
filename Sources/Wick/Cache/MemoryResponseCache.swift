// A response cache in memory with a byte budget, least recently used first out.
public import FoundationEssentials
import WickReactor

/// A thread-safe `ResponseCache` in memory, bounded by `maximumBytes` (bodies, fields and URLs,
/// as `CachedResponse.cost` counts them): storing past the budget evicts the least recently
/// used URLs (a look-up or a store is a use) until it fits. A response costing more than
/// `maximumEntryBytes` is not stored, so one large body cannot empty the cache.
///
/// Every operation is O(1) apart from the variants of one URL (a handful at most): the URLs
/// sit in a dictionary and a doubly linked list in use order.
public final class MemoryResponseCache: ResponseCache {
    /// The default budget: 16 MiB.
    public static let defaultMaximumBytes = 16 << 20

    /// The budget for every stored response together.
    public let maximumBytes: Int
    /// The largest response stored.
    public let maximumEntryBytes: Int
    /// The stored responses and their use order. A pthread mutex (`Locked`), which
    /// ThreadSanitizer sees.
    private let state: Locked<LRUStore>

    /// An empty cache.
    /// - Parameter maximumBytes: the budget (at least 1).
    /// - Parameter maximumEntryBytes: the largest response kept; nil: a tenth of the budget.
    public init(maximumBytes: Int = defaultMaximumBytes, maximumEntryBytes: Int? = nil) {
        precondition(maximumBytes >= 1, "MemoryResponseCache: maximumBytes must be positive")
        self.maximumBytes = maximumBytes
        self.maximumEntryBytes = min(maximumEntryBytes ?? max(1, maximumBytes / 10), maximumBytes)
        state = Locked(LRUStore())
    }

    /// The bytes the stored responses cost now.
    public var currentBytes: Int { state.withLock { $0.totalCost } }
    /// How many URLs have stored responses.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The responses stored for `url`; marks the URL used.
    public func cachedResponses(for url: URL) -> [CachedResponse] {
        state.withLock { store in
            guard !store.entries.isEmpty else { return [] }
            return store.use(ResponseCacheKey.of(url))?.variants ?? []
        }
    }

    /// Stores `response` (replacing its variant), then evicts least recently used URLs until
    /// the budget holds; refuses a response over `maximumEntryBytes`.
    public func store(_ response: CachedResponse) {
        let cost = response.cost
        guard cost <= maximumEntryBytes else { return }
        let key = ResponseCacheKey.of(response.url)
        state.withLock { store in
            var variants = store.remove(key)?.variants ?? []
            variants.removeAll { $0.varyingRequestFields == response.varyingRequestFields }
            variants.append(response)
            store.insertMostRecent(key, variants: variants)
            while store.totalCost > maximumBytes, let oldest = store.oldestKey, oldest != key { store.remove(oldest) }
        }
    }

    /// Forgets the responses stored for `url`.
    public func removeCachedResponses(for url: URL) {
        state.withLock { _ = $0.remove(ResponseCacheKey.of(url)) }
    }

    /// Forgets every stored response.
    public func removeAllCachedResponses() {
        state.withLock { $0 = LRUStore() }
    }
}

/// URLs' stored responses in use order: a dictionary of nodes linked from the least to the
/// most recently used. Only ever touched under `MemoryResponseCache`'s lock.
struct LRUStore: Sendable {
    /// One URL's responses and its neighbours in use order. `@unchecked Sendable`: nodes are
    /// reached only through the store, under the cache's lock.
    final class Node: @unchecked Sendable {
        let key: String
        var variants: [CachedResponse]
        let cost: Int
        var older: Node?
        weak var newer: Node?

        init(key: String, variants: [CachedResponse]) {
            self.key = key
            self.variants = variants
            cost = variants.reduce(0) { $0 + $1.cost }
        }
    }

    private(set) var entries: [String: Node] = [:]
    private(set) var totalCost = 0
    /// The least recently used node; its `newer` chain leads to `newest`.
    private var oldest: Node?
    private var newest: Node?

    /// The least recently used URL.
    var oldestKey: String? { oldest?.key }

    /// The node for `key`, moved to the most recent end.
    mutating func use(_ key: String) -> Node? {
        guard let node = entries[key] else { return nil }
        unlink(node)
        link(node)
        return node
    }

    /// Adds `key`'s responses as the most recently used. `key` must not be stored.
    mutating func insertMostRecent(_ key: String, variants: [CachedResponse]) {
        let node = Node(key: key, variants: variants)
        entries[key] = node
        totalCost += node.cost
        link(node)
    }

    /// Removes `key`'s responses; returns them.
    @discardableResult
    mutating func remove(_ key: String) -> Node? {
        guard let node = entries.removeValue(forKey: key) else { return nil }
        unlink(node)
        totalCost -= node.cost
        return node
    }

    private mutating func link(_ node: Node) {
        node.older = newest
        node.newer = nil
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private mutating func unlink(_ node: Node) {
        if let newer = node.newer { newer.older = node.older } else { newest = node.older }
        if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
        node.older = nil
        node.newer = nil
    }
}
