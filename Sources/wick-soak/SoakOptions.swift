// The soak's command line: how many requests, how many at once, how many faults, for how long.
import Foundation

/// What `wick-soak` runs, from its arguments.
struct SoakOptions: Sendable {
    /// Requests to send in all (the run also stops at `duration`, if given).
    var requests = 1_000_000
    /// Requests in flight at once.
    var concurrency = 64
    /// The share of requests that meet an injected fault, from 0 to 1.
    var faultRate = 0.05
    /// Stop sending new requests after this long; nil: only `requests` bounds the run.
    var duration: Duration?
    /// Where the summary, the samples and the plot go.
    var output = URL(fileURLWithPath: ".build/soak")
    /// Seeds the request mix, so a run can be repeated.
    var seed: UInt64 = 0x50AC

    static let usage =
        "usage: wick-soak [--requests N] [--concurrency C] [--fault-rate R] [--duration SECONDS] [--output DIR] [--seed S]"

    /// Reads `arguments` (without the program name).
    /// - Throws: `SoakUsageError` for an unknown option or a value out of range.
    init(arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let option = iterator.next() {
            guard let value = iterator.next() else { throw SoakUsageError("\(option) needs a value\n\(Self.usage)") }
            switch option {
            case "--requests": requests = try Self.number(value, option, in: 1...Int.max)
            case "--concurrency": concurrency = try Self.number(value, option, in: 1...4096)
            case "--fault-rate":
                guard let rate = Double(value), (0...1).contains(rate) else {
                    throw SoakUsageError("--fault-rate takes a number from 0 to 1")
                }
                faultRate = rate
            case "--duration": duration = .seconds(try Self.number(value, option, in: 1...Int.max))
            case "--output": output = URL(fileURLWithPath: value)
            case "--seed": seed = UInt64(try Self.number(value, option, in: 0...Int.max))
            default: throw SoakUsageError("unknown option \(option)\n\(Self.usage)")
            }
        }
    }

    private static func number(_ text: String, _ option: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw SoakUsageError("\(option) takes a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}

/// A command line the soak cannot run.
struct SoakUsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
