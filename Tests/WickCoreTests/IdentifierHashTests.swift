// identifierHash spreads the numbers Wick picks over a hashed collection's buckets.
import Testing
import WickCore

@Suite struct IdentifierHashTests {
    /// Consecutive and strided numbers (requests, connections and timers are numbered in order;
    /// descriptors are reused) spread over a table's buckets, the low bits a `Dictionary` uses,
    /// about as a random hash would: eight per bucket on average, no bucket over three times
    /// that, almost none empty.
    @Test(arguments: [0, 1, 0x5EED_5EED, -42])
    func numbersSpreadOverTheBuckets(seed: Int) {
        for bucketBits in [4, 6, 10] {
            for stride in [UInt64(1), 2, 64, 1 << 20] {
                let buckets = 1 << bucketBits
                var counts = [Int](repeating: 0, count: buckets)
                for index in 0..<UInt64(buckets * 8) {
                    counts[identifierHash(1_000 + index * stride, seed: seed) & (buckets - 1)] += 1
                }
                let empty = counts.count { $0 == 0 }
                #expect(counts.max()! <= 24, "\(buckets) buckets, stride \(stride), seed \(seed): \(counts.max()!)")
                #expect(
                    empty <= buckets / 100 + 1, "\(buckets) buckets, stride \(stride), seed \(seed): \(empty) empty")
            }
        }
    }

    @Test func theSameNumberAndSeedHashAlike() {
        #expect(identifierHash(7, seed: 3) == identifierHash(7, seed: 3))
        #expect(identifierHash(7, seed: 3) != identifierHash(8, seed: 3))
    }

    /// Dictionaries keyed by the identifiers still find what they hold.
    @Test func aDictionaryKeyedByIdentifiersFindsEveryKey() {
        struct Key: Hashable {
            let value: UInt64
            func _rawHashValue(seed: Int) -> Int { identifierHash(value, seed: seed) }
        }
        var table: [Key: UInt64] = [:]
        for value in 0..<UInt64(5_000) { table[Key(value: value * 3)] = value }
        for value in 0..<UInt64(5_000) { #expect(table[Key(value: value * 3)] == value) }
        #expect(table[Key(value: 1)] == nil)
    }
}
