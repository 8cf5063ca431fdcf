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
    /// How often each instruction ran, by its address, with the function it belongs to; empty
    /// unless the dump was recorded with `--dump-instr=yes`.
    private(set) var executions: [UInt64: (count: UInt64, function: Substring)] = [:]

    /// malloc and its siblings: each call is one allocation, as the interposer counts them.
    static let allocators: Set<Substring> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
    ]

    /// The events a level-1 miss is counted from, as `--cache-sim=yes` names them.
    static let l1MissEvents: Set<Substring> = ["I1mr", "D1mr", "D1mw"]

    /// Parses `text`, a callgrind output file (format version 1, `positions: line` or
    /// `positions: instr line`, the cost columns its `events:` line names; a cost line may leave
    /// trailing zeros out, and gives its positions absolute, relative (`+n`, `-n`) or as before
    /// (`*`)).
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
        // The position columns before the costs: `line` alone unless the header says otherwise.
        var positionCount = 1
        var tracksAddresses = false
        var address: UInt64 = 0

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
                // The positions first, then one number per event.
                let fields = line.split(separator: " ")
                if tracksAddresses, let position = fields.first {
                    address = Self.position(position, after: address)
                }
                let columns = fields.dropFirst(positionCount).map { UInt64($0) ?? 0 }
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
                    if tracksAddresses {
                        // `Ir` at one instruction is how often it ran.
                        executions[address, default: (0, contexts[functionIndex].frames[0])].count += cost
                    }
                    totalInstructions += cost
                    totalL1Misses += misses
                }
            } else if line.hasPrefix("positions:") {
                let positions = line.dropFirst(10).split(separator: " ")
                positionCount = max(1, positions.count)
                tracksAddresses = positions.first == "instr"
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

    /// A position column's value: absolute (decimal or `0x` hexadecimal), relative to `previous`
    /// (`+n`, `-n`), or `previous` itself (`*`).
    private static func position(_ text: Substring, after previous: UInt64) -> UInt64 {
        switch text.first {
        case "*": return previous
        case "+": return previous &+ (parse(text.dropFirst()) ?? 0)
        case "-": return previous &- (parse(text.dropFirst()) ?? 0)
        default: return parse(text) ?? previous
        }
        func parse(_ digits: Substring) -> UInt64? {
            digits.hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) : UInt64(digits)
        }
    }

    /// The 64-byte lines of code holding an instruction that ran at least `minimum` times, by
    /// the layer of the function the instruction belongs to (its own, not its callers': a line
    /// of `swift_retain` is the runtime's however often the codec calls it); a line shared by
    /// two layers' functions counts once, for the first found. Empty without `--dump-instr=yes`.
    func codeLines<Layer: Hashable>(
        runAtLeast minimum: UInt64, by layer: (_ function: Substring, _ object: Substring) -> Layer?,
        unplaced: Layer
    ) -> [Layer: Int] {
        var layerByLine: [UInt64: Layer] = [:]
        var cache: [Substring: Layer] = [:]
        for (address, ran) in executions where ran.count >= minimum {
            let line = address / 64
            guard layerByLine[line] == nil else { continue }
            let placed: Layer
            if let known = cache[ran.function] {
                placed = known
            } else {
                placed = layer(ran.function, objects[ran.function] ?? "") ?? unplaced
                cache[ran.function] = placed
            }
            layerByLine[line] = placed
        }
        var lines: [Layer: Int] = [:]
        for placed in layerByLine.values { lines[placed, default: 0] += 1 }
        return lines
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
