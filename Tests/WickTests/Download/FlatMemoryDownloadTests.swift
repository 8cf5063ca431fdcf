// A 512 MiB download in flat memory: the writer's backpressure holds the process's resident size.
import Foundation
import Synchronization
import Testing
import WickReactor
import WickTestSupport

@testable import Wick

@Suite(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
struct FlatMemoryDownloadTests {
    /// The file's size.
    static let fileSize: Int64 = 512 << 20
    /// The most the resident size may grow while downloading: 64 MiB, an eighth of the file. The
    /// download itself holds the writer's high-water mark (4 MiB) and a read buffer: alone it
    /// grew by 3 to 4 MiB. `Scripts/test` runs FlatMemory* suites in a process of their own, so
    /// other tests' allocations do not count. Without backpressure the writer's stall below
    /// queues most of the file (312 MiB after a one-second stall); the exact check is on the
    /// bytes queued for the writer.
    static let allowedGrowth = 64 << 20

    /// This process's resident set (`VmRSS` in `/proc/self/status`), in bytes.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1_024 }
        }
        return nil
    }

    @Test func a512MiBDownloadKeepsTheResidentSizeFlat() async throws {
        let nginx = try TestEnvironment.nginx()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // A sparse file: nginx reads zeros without the disk holding them.
        let served = nginx.documentRoot.appendingPathComponent("bytes/wick-download-512m")
        #expect(FileManager.default.createFile(atPath: served.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: served) }
        #expect(truncate(served.path, off_t(Self.fileSize)) == 0)

        let session = Session()
        // Warm up: the session's loop, pool and a first download's allocations.
        _ = try await session.download("\(nginx.httpBase)/bytes/1m", to: { _, _ in (scratch.file("warm"), []) })
            .serializingDownloadedFileURL().value
        let target = scratch.file("512m")
        let request = session.download("\(nginx.httpBase)/bytes/wick-download-512m", to: { _, _ in (target, []) })
        let baseline = try #require(Self.residentBytes())
        let peak = Atomic<Int>(baseline)
        let peakQueued = Atomic<Int>(0)
        let sampling = Atomic<Bool>(true)
        let sampler = Thread { [sink = request.sink] in
            // Bounded: at most 120 s of samples every 5 ms.
            for _ in 0..<24_000 where sampling.load(ordering: .acquiring) {
                if let now = Self.residentBytes() { peak.max(now) }
                peakQueued.max(sink.state.withLock { $0.outstandingBytes })
                usleep(5_000)
            }
        }
        sampler.start()
        let started = ContinuousClock.now
        // A disk that stalls for two seconds at the start: without backpressure, loopback
        // would queue most of the file meanwhile.
        request.sink.writerQueue.async { usleep(2_000_000) }
        let response = await request.serializingDownloadedFileURL().response
        let elapsed = ContinuousClock.now - started
        sampling.store(false, ordering: .releasing)
        #expect(try response.result.get() == target)
        let size = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int
        #expect(size.map(Int64.init) == Self.fileSize)
        let growth = peak.load(ordering: .acquiring) - baseline
        let queued = peakQueued.load(ordering: .acquiring)
        print(
            "512 MiB download: \(elapsed), resident growth \(growth >> 20) MiB (baseline \(baseline >> 20) MiB), "
                + "at most \(queued >> 10) KiB queued for the writer")
        // Exact: the mark plus one read buffer.
        #expect(queued <= DownloadSink.highWaterMark + EventLoopGroup.Configuration().readBufferSize)
        #expect(growth < Self.allowedGrowth, "resident size grew by \(growth >> 20) MiB")
        await session.shutdown()
    }
}

extension Atomic<Int> {
    /// Raises the value to `candidate` if that is larger.
    func max(_ candidate: Int) {
        var current = load(ordering: .relaxed)
        while candidate > current {
            let (exchanged, original) = compareExchange(
                expected: current, desired: candidate, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}
