// One callgrind dump read back: instructions, simulated L1 misses and allocations charged to the
// layer that caused them.
import Foundation

/// A callgrind dump recorded with `--separate-callers=N`, so every function appears once per
/// chain of its N nearest callers (`f'caller'caller's caller'...`). That chain is what lets a
/// cost be charged to the layer that caused it: `swift_retain` or `malloc` called from the codec
/// is the codec's cost, not the runtime's.
struct CallgrindProfile {
    /// A function in one calling context: its name first, then its callers, nearest first.
    struct Context {
        let frames: [Substring]
        /// Instructions executed in the function itself in this context.
        var instructions: UInt64 = 0
        /// Level-1 misses of the function itself in this context, instruction and data (read and
        /// write) together; 0 unless the dump was recorded with `--cache-sim=yes`.
        var l1Misses: UInt64 = 0
    }

    /// Every context with instructions of its own.
    private(set) var contexts: [Context] = []
    /// Calls into an allocator entry point, by the calling context's frames.
    private(set) var allocations: [(frames: [Substring], calls: UInt64)] = []
    /// The shared object of each function name (only a context's own function has one in the
    /// file; its callers' objects are looked up here by name).
    private(set) var objects: [Substring: Substring] = [:]
    /// Every instruction in the dump.
    private(set) var totalInstructions: UInt64 = 0
    /// Every level-1 miss in the dump (0 without `--cache-sim=yes`).
    private(set) var totalL1Misses: UInt64 = 0

    /// malloc and its siblings: each call is one allocation, as the interposer counts them.
    static let allocators: Set<Substring> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
    ]

    /// The events a level-1 miss is counted from, as `--cache-sim=yes` names them.
    static let l1MissEvents: Set<Substring> = ["I1mr", "D1mr", "D1mw"]

    /// Parses `text`, a callgrind output file (format version 1, `positions: line`, the cost
    /// columns its `events:` line names; a cost line may leave trailing zeros out).
    init(text: String) {
        var names: [Substring: Substring] = [:]
        var objectNames: [Substring: Substring] = [:]
        var object: Substring = ""
        var function: Substring = ""
        var functionIndex = -1
        var callee: Substring = ""
        var pendingCalls: UInt64?
        var indexByName: [Substring: Int] = [:]
        // The cost columns: `Ir` alone unless the header says otherwise.
        var instructionColumn = 0
        var missColumns: [Int] = []

        /// `(id) name` defines id; `(id)` refers to it.
        func resolve(_ value: Substring, in table: inout [Substring: Substring]) -> Substring {
            guard value.first == "(", let close = value.firstIndex(of: ")") else { return value }
            let id = value[value.index(after: value.startIndex)..<close]
            let rest = value[value.index(after: close)...]
            if rest.first == " " {
                let name = rest.dropFirst()
                table[id] = name
                return name
            }
            return table[id] ?? value
        }

        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                // The position first, then one number per event.
                let columns = line.split(separator: " ").dropFirst().map { UInt64($0) ?? 0 }
                func column(_ index: Int) -> UInt64 { index < columns.count ? columns[index] : 0 }
                let cost = column(instructionColumn)
                if let calls = pendingCalls {
                    pendingCalls = nil
                    let frames = callee.split(separator: "'")
                    // An interposed allocator calls the real one: count the outer call only.
                    if let base = frames.first, Self.allocators.contains(base),
                        frames.count < 2 || !Self.allocators.contains(frames[1])
                    {
                        allocations.append((frames, calls))
                    }
                } else if functionIndex >= 0 {
                    let misses = missColumns.reduce(0) { $0 + column($1) }
                    contexts[functionIndex].instructions += cost
                    contexts[functionIndex].l1Misses += misses
                    totalInstructions += cost
                    totalL1Misses += misses
                }
            } else if line.hasPrefix("events:") {
                let events = line.dropFirst(7).split(separator: " ")
                instructionColumn = events.firstIndex(of: "Ir") ?? 0
                missColumns = events.indices.filter { Self.l1MissEvents.contains(events[$0]) }
            } else if line.hasPrefix("fn=") {
                function = resolve(line.dropFirst(3), in: &names)
                if let index = indexByName[function] {
                    functionIndex = index
                } else {
                    functionIndex = contexts.count
                    indexByName[function] = functionIndex
                    contexts.append(Context(frames: function.split(separator: "'")))
                }
                let base = function.prefix { $0 != "'" }
                if objects[base] == nil { objects[base] = object }
            } else if line.hasPrefix("ob=") {
                object = resolve(line.dropFirst(3), in: &objectNames)
            } else if line.hasPrefix("cob=") {
                _ = resolve(line.dropFirst(4), in: &objectNames)
            } else if line.hasPrefix("cfn=") {
                callee = resolve(line.dropFirst(4), in: &names)
            } else if line.hasPrefix("calls=") {
                let count = line.dropFirst(6).prefix { $0 != " " }
                pendingCalls = UInt64(count) ?? 0
            }
        }
    }

    /// Instructions, level-1 misses and allocations per layer, each cost charged to the nearest
    /// frame of its calling chain that `layer` places (the rest to `unplaced`).
    func costs<Layer: Hashable>(
        by layer: (_ function: Substring, _ object: Substring) -> Layer?, unplaced: Layer
    ) -> (instructions: [Layer: UInt64], l1Misses: [Layer: UInt64], allocations: [Layer: UInt64]) {
        var cache: [Substring: Layer?] = [:]
        func place(_ frames: some Sequence<Substring>) -> Layer {
            for frame in frames {
                let placed: Layer?
                if let known = cache[frame] {
                    placed = known
                } else {
                    placed = layer(frame, objects[frame] ?? "")
                    cache[frame] = placed
                }
                if let placed { return placed }
            }
            return unplaced
        }
        var instructions: [Layer: UInt64] = [:]
        var misses: [Layer: UInt64] = [:]
        for context in contexts where context.instructions > 0 || context.l1Misses > 0 {
            let placed = place(context.frames)
            instructions[placed, default: 0] += context.instructions
            misses[placed, default: 0] += context.l1Misses
        }
        var allocated: [Layer: UInt64] = [:]
        for allocation in allocations {
            // The allocator's own frame places nothing; its callers do.
            allocated[place(allocation.frames.dropFirst()), default: 0] += allocation.calls
        }
        return (instructions, misses, allocated)
    }
}
