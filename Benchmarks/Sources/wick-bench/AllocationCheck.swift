// `wick-bench check-allocations`: the gate the test suite can run cheaply.
import Foundation

/// Compares steady-state allocation counts with `Thresholds/allocations.json`.
enum AllocationCheck {
    /// Prints each figure beside its limit; returns false when any figure exceeds its limit or
    /// the allocation counter does not count.
    static func run() throws -> Bool {
        guard AllocationCounter.selfTest() else {
            print("check-allocations: the malloc interposer did not count test allocations")
            return false
        }
        let url = ByteInput.packageDirectory.appendingPathComponent("Thresholds/allocations.json")
        let limits = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: url))
        var measured: [String: Double] = [:]
        for (key, value) in try ParserBenchmark().allocationsPerHead() {
            measured["parser.head.\(key)"] = value
        }
        for (key, value) in try DecoderBenchmark().allocationsPerBody() {
            measured["decoders.body.\(key)"] = value
        }
        for (key, value) in HPACKBenchmark().allocationsPerList() {
            measured["hpack.list.\(key)"] = value
        }
        for (key, value) in CookieBenchmark().allocationsPerCase() {
            measured["cookies.\(key)"] = value
        }
        for (key, value) in try SessionAllocations.perRequest() {
            measured["session.request.\(key)"] = value
        }
        var passed = true
        for name in limits.keys.sorted() {
            guard let value = measured[name] else {
                print("check-allocations: \(name): no such measurement")
                passed = false
                continue
            }
            let ok = value <= limits[name]!
            passed = passed && ok
            print(
                "check-allocations: \(name): \(Format.fixed(value, 4)) per operation (limit \(Format.fixed(limits[name]!, 4))) \(ok ? "ok" : "FAIL")"
            )
        }
        for name in measured.keys.sorted() where limits[name] == nil {
            print(
                "check-allocations: \(name): measured \(Format.fixed(measured[name]!, 3)) but has no limit in \(url.lastPathComponent)"
            )
            passed = false
        }
        return passed
    }
}
