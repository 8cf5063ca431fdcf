// Instruction counts per operation under valgrind's callgrind: repeatable where times are not.
import CBenchSupport
import Foundation

/// Counts instructions per operation by re-running wick-bench under callgrind.
///
/// The parent copies its own executable without debug info (valgrind 3.19 cannot read the
/// DWARF 5 that Swift emits and gives up), runs `valgrind --tool=callgrind <copy>
/// callgrind-probe <suite>`, and the child warms
/// each workload up, zeroes callgrind's counters, runs it `operations` times and dumps the
/// counters tagged with the workload's name. The parent reads the dumps back.
enum InstructionCounter {
    /// Whether valgrind and objcopy are on PATH.
    static var isAvailable: Bool {
        let path = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":")
        return ["valgrind", "objcopy"].allSatisfy { tool in
            path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
    }

    /// Runs `arguments` (looked up on PATH) with its output discarded; throws unless it exits 0.
    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw UsageError("\(arguments[0]) exited with status \(process.terminationStatus)")
        }
    }

    /// In the child: measures each workload between a zero and a dump of callgrind's counters.
    static func probe(_ workloads: [Workload], operations: Int) {
        precondition(bench_running_on_valgrind() != 0, "callgrind-probe runs only under valgrind")
        for workload in workloads {
            blackHole(workload.run(max(1, operations / 10)))
            bench_callgrind_zero_stats()
            blackHole(workload.run(operations))
            bench_callgrind_dump_stats("\(workload.name)|\(operations)")
        }
    }

    /// In the parent: runs the probe for `suite` and returns instructions per operation by
    /// workload name, or nil (with a message on stderr) when valgrind failed.
    static func measure(suite: String, arguments: [String] = []) -> [String: Double]? {
        dumps(suite: suite, arguments: arguments)?.compactMapValues { dump in
            guard
                let totals = dump.text.split(separator: "\n").first(where: {
                    $0.hasPrefix("totals: ") || $0.hasPrefix("summary: ")
                }),
                let instructions = Double(totals.split(separator: " ")[1])
            else { return nil }
            return instructions / dump.operations
        }
    }

    /// In the parent: runs the probe for `suite` (with `valgrindOptions` added to callgrind's) and
    /// returns each workload's dump with its operation count, by workload name, or nil (with a
    /// message on stderr) when valgrind failed. With `keepingIn`, each dump is also copied there
    /// as `<workload>.callgrind` for `callgrind_annotate`.
    static func dumps(
        suite: String, arguments: [String] = [], valgrindOptions: [String] = [], keepingIn kept: URL? = nil
    ) -> [String: (operations: Double, text: String)]? {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("wick-bench-callgrind-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let executable = directory.appendingPathComponent("wick-bench").path
            try run(["objcopy", "--strip-debug", selfPath, executable])
            try run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(directory.path)/out"] + valgrindOptions
                    + [executable, "callgrind-probe", suite] + arguments)
            var result: [String: (operations: Double, text: String)] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasPrefix("out.")
            {
                let text = try String(contentsOfFile: directory.appendingPathComponent(file).path, encoding: .utf8)
                guard
                    let trigger = text.split(separator: "\n", maxSplits: 40).first(where: {
                        $0.hasPrefix("desc: Trigger: Client Request: ")
                    })
                else { continue }
                let tag = trigger.dropFirst("desc: Trigger: Client Request: ".count).split(separator: "|")
                guard tag.count == 2, let operations = Double(tag[1]) else { continue }
                result[String(tag[0])] = (operations, text)
                if let kept {
                    try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
                    let copy = kept.appendingPathComponent("\(tag[0]).callgrind")
                    try? FileManager.default.removeItem(at: copy)
                    try FileManager.default.copyItem(at: directory.appendingPathComponent(file), to: copy)
                }
            }
            return result
        } catch {
            FileHandle.standardError.write(Data("wick-bench: callgrind run failed: \(error)\n".utf8))
            return nil
        }
    }

    /// This executable's path.
    private static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
