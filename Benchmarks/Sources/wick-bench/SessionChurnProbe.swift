// Whether a Session that is created, used and shut down leaves anything behind: heap bytes in
// use and descriptors after many such sessions.
import CBenchSupport
import Foundation
import Wick
import WickTestSupport

/// `wick-bench session-churn [SESSIONS]`: creates a `Session`, makes one keep-alive GET and a
/// redirect against nginx, shuts it down, SESSIONS times; prints malloc's bytes in use
/// (`mallinfo2`) and the open descriptors after a warm-up of 200 sessions and at the end, and
/// the growth per session between them.
enum SessionChurnProbe {
    static func run(sessions: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-bench-churn-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try TestServers(directory: directory, selection: .nginx)
        defer { servers.stop() }
        guard let nginx = servers.nginx else { throw BenchError("nginx did not start") }
        let url = "http://127.0.0.1:\(nginx.httpPort)/bytes/1k"
        func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }
        func churn(_ count: Int) throws {
            for _ in 0..<count {
                try blocking {
                    let session = Session()
                    _ = try await session.request(url).serializingData().value
                    _ = try await session.request(url).serializingData().value
                    await session.shutdown()
                }
            }
        }
        try churn(200)
        let heapBefore = bench_heap_bytes()
        let descriptorsBefore = descriptors()
        try churn(sessions)
        let heapAfter = bench_heap_bytes()
        print("after 200 sessions: \(heapBefore) heap bytes, \(descriptorsBefore) descriptors")
        print("after \(sessions) more: \(heapAfter) heap bytes, \(descriptors()) descriptors")
        print(String(format: "growth: %.1f bytes per session", (Double(heapAfter) - Double(heapBefore)) / Double(sessions)))
    }
}
