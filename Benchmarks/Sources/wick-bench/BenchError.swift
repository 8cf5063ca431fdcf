// A benchmark that could not run as set up: a peer refused, a server answered wrongly.

/// Why a workload could not be measured, in words.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
