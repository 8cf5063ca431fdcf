// The dynamic table's entries in one byte buffer: lookups, eviction and compaction against a
// plain model of RFC 7541 §4.
import Testing
import WickTestSupport

@testable import WickHTTP2

@Suite struct HPACKDynamicTableTests {
    /// RFC 7541 §4 without any storage trick: newest first, oldest evicted to fit.
    private struct Model {
        var entries: [(name: [UInt8], value: [UInt8])] = []
        var capacity: Int

        var size: Int { entries.reduce(0) { $0 + $1.name.count + $1.value.count + 32 } }

        mutating func insert(_ name: [UInt8], _ value: [UInt8]) {
            guard name.count + value.count + 32 <= capacity else { return entries = [] }
            entries.insert((name, value), at: 0)
            while size > capacity { entries.removeLast() }
        }

        mutating func setCapacity(_ newCapacity: Int) {
            capacity = newCapacity
            while size > capacity { entries.removeLast() }
        }
    }

    /// The table's entry `index`, name and value, read back through `append`.
    private func entry(_ table: HPACKDynamicTable, _ index: Int) -> (name: [UInt8], value: [UInt8]) {
        var name: [UInt8] = []
        table.append(index, nameOnly: true, to: &name)
        var both: [UInt8] = []
        table.append(index, nameOnly: false, to: &both)
        let counts = table.counts(at: index)
        #expect(name.count == counts.name && both.count == counts.name + counts.value)
        return (name, Array(both.dropFirst(counts.name)))
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomInsertsMatchTheModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var table = HPACKDynamicTable(capacity: 256)
        var model = Model(capacity: 256)
        let names = ["a", "date", "x-long-name", "content-type"].map { Array($0.utf8) }
        for step in 0..<2_000 {
            if step % 97 == 96 {
                let capacity = [0, 64, 256, 300].randomElement(using: &random)!
                table.setCapacity(capacity)
                model.setCapacity(capacity)
            }
            let name = names.randomElement(using: &random)!
            // Sizes from tiny to larger than the whole table (which empties it).
            let value = [UInt8](
                repeating: UInt8(ascii: "a") + UInt8(step % 26), count: Int.random(in: 0...260, using: &random))
            table.insert(name: name, value: value)
            model.insert(name, value)
            #expect(table.count == model.entries.count && table.size == model.size, "seed \(seed) step \(step)")
            for index in 0..<table.count where index < 3 || index == table.count - 1 {
                let stored = entry(table, index)
                #expect(stored.name == model.entries[index].name && stored.value == model.entries[index].value)
            }
            let probe = model.entries.first ?? (name, value)
            let found = table.find(name: probe.name, value: probe.value)
            #expect(found.exact == (model.entries.isEmpty ? nil : 0), "seed \(seed) step \(step)")
        }
    }

    /// Inserts that evict, undone: the table reads as before; kept: as the model says.
    @Test(arguments: [5, 6, 7])
    func aHeldChangeRollsBackOrIsKept(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var table = HPACKDynamicTable(capacity: 200)
        var model = Model(capacity: 200)
        for round in 0..<300 {
            let before = model
            let checkpoint = table.hold()
            var changed = model
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let name = Array("n\(Int.random(in: 0..<5, using: &random))".utf8)
                let value = [UInt8](repeating: UInt8(ascii: "v"), count: Int.random(in: 0...120, using: &random))
                table.insert(name: name, value: value)
                changed.insert(name, value)
            }
            let keeps = Bool.random(using: &random)
            if keeps {
                table.release()
                model = changed
            } else {
                table.rollBack(to: checkpoint)
                model = before
            }
            #expect(table.count == model.entries.count && table.size == model.size, "seed \(seed) round \(round)")
            for index in 0..<table.count {
                let stored = entry(table, index)
                #expect(stored.name == model.entries[index].name && stored.value == model.entries[index].value)
            }
        }
    }

    @Test func findPrefersTheNewestEntryAndFallsBackToTheName() {
        var table = HPACKDynamicTable(capacity: 4096)
        table.insert(name: Array("a".utf8), value: Array("1".utf8))
        table.insert(name: Array("b".utf8), value: Array("2".utf8))
        table.insert(name: Array("a".utf8), value: Array("3".utf8))
        #expect(table.find(name: Array("a".utf8), value: Array("1".utf8)) == (2, 0))
        #expect(table.find(name: Array("a".utf8), value: Array("9".utf8)) == (nil, 0))
        #expect(table.find(name: Array("b".utf8), value: Array("2".utf8)) == (1, 1))
        #expect(table.find(name: Array("c".utf8), value: Array("2".utf8)) == (nil, nil))
    }
}
