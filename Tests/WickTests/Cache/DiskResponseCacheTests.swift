// The disk store: across a restart, atomic files, corrupt and truncated files as misses, a
// failing write, the budget, and concurrent use by many tasks.
import Foundation
import Testing
@testable import Wick

struct DiskResponseCacheTests {
    /// A fresh directory for one test.
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("wick-disk-cache-\(UUID().uuidString)")
    }

    static func response(_ path: String, body: String = "hello", varying: [String: String?] = [:]) -> CachedResponse {
        CachedResponse(
            url: URL(string: "https://example.com\(path)")!, statusCode: 200,
            headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""], data: Data(body.utf8),
            requestDate: CacheFreshnessTests.t0, responseDate: CacheFreshnessTests.t0.addingTimeInterval(1),
            varyingRequestFields: varying)
    }

    @Test func responsesSurviveARestart() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DiskResponseCache(directory: directory)
        let a = Self.response("/a", varying: ["accept": "x", "x-none": String?.none])
        let b = Self.response("/b", body: String(repeating: "b", count: 10_000))
        first.store(a)
        first.store(b)
        first.synchronize()
        let second = try DiskResponseCache(directory: directory)
        #expect(second.cachedResponses(for: a.url) == [a] && second.cachedResponses(for: b.url) == [b])
        #expect(second.discardedFiles == 0 && second.currentBytes == first.currentBytes)
    }

    @Test func removalsReachTheDisk() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskResponseCache(directory: directory)
        for index in 0..<5 { cache.store(Self.response("/\(index)")) }
        cache.removeCachedResponses(for: URL(string: "https://example.com/0")!)
        cache.synchronize()
        #expect(try DiskResponseCache(directory: directory).count == 4)
        cache.removeAllCachedResponses()
        cache.synchronize()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aCorruptOrTruncatedFileIsAMissNeverAWrongBody() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskResponseCache(directory: directory)
        for path in ["/flipped", "/truncated", "/empty", "/intact"] { cache.store(Self.response(path, body: "body of \(path)")) }
        cache.synchronize()
        func file(_ path: String) -> URL {
            directory.appendingPathComponent(DiskResponseCacheFile.fileName(for: "https://example.com\(path)"))
        }
        var flipped = try Data(contentsOf: file("/flipped"))
        flipped[flipped.count - 12] ^= 0x01  // a body byte
        try flipped.write(to: file("/flipped"))
        let whole = try Data(contentsOf: file("/truncated"))
        try whole.prefix(whole.count - 3).write(to: file("/truncated"))
        try Data().write(to: file("/empty"))
        try Data("not a cache file".utf8).write(to: directory.appendingPathComponent("0000000000000000.wickcache"))
        let reopened = try DiskResponseCache(directory: directory)
        #expect(reopened.discardedFiles == 4 && reopened.count == 1)
        #expect(reopened.cachedResponses(for: URL(string: "https://example.com/intact")!).first?.data == Data("body of /intact".utf8))
        for path in ["/flipped", "/truncated", "/empty"] {
            #expect(reopened.cachedResponses(for: URL(string: "https://example.com\(path)")!).isEmpty, "\(path)")
            #expect(!FileManager.default.fileExists(atPath: file(path).path), "\(path)")
        }
    }

    @Test func everyTruncationOfAFileIsRefused() throws {
        let bytes = try #require(DiskResponseCacheFile.encode(key: "https://example.com/a", responses: [Self.response("/a")]))
        #expect(DiskResponseCacheFile.decode(bytes)?.responses == [Self.response("/a")])
        for length in 0..<bytes.count {
            #expect(DiskResponseCacheFile.decode(bytes.prefix(length)) == nil, "\(length) bytes")
        }
    }

    @Test func aFailingWriteIsCountedAndMemoryStillServes() throws {
        // The directory vanishes under the cache (as a full disk, the write cannot complete).
        let directory = Self.directory()
        let cache = try DiskResponseCache(directory: directory)
        try FileManager.default.removeItem(at: directory)
        let a = Self.response("/a")
        cache.store(a)
        cache.synchronize()
        #expect(cache.failedWrites == 1 && cache.cachedResponses(for: a.url) == [a])
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func anUnusableDirectoryIsASpecificError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wick-disk-cache-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            _ = try DiskResponseCache(directory: file)
        } throws: { error in
            guard case .responseCacheUnavailable(let path, _) = error as? WickError else { return false }
            return path == file.path
        }
    }

    @Test func theBudgetHoldsOnDiskAndAfterARestart() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = Self.response("/0", body: String(repeating: "z", count: 1_000)).cost
        let cache = try DiskResponseCache(directory: directory, maximumBytes: one * 4, maximumEntryBytes: one)
        for index in 0..<10 { cache.store(Self.response("/\(index)", body: String(repeating: "z", count: 1_000))) }
        cache.synchronize()
        #expect(cache.count == 4 && cache.currentBytes <= one * 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 4)
        // The newest four remain; a smaller budget after a restart keeps the newest that fit.
        let smaller = try DiskResponseCache(directory: directory, maximumBytes: one * 2, maximumEntryBytes: one)
        #expect(smaller.count == 2)
    }

    @Test func concurrentRequestsShareOneDiskCache() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskResponseCache(directory: directory, maximumBytes: 256 * 1024)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let path = "/\((worker + index) % 32)"
                        cache.store(Self.response(path, body: String(repeating: "w", count: index)))
                        _ = cache.cachedResponses(for: URL(string: "https://example.com\(path)")!)
                        if index % 40 == 0 { cache.removeCachedResponses(for: URL(string: "https://example.com\(path)")!) }
                    }
                }
            }
        }
        cache.synchronize()
        // What is on disk is exactly what is in memory, every file intact.
        let reopened = try DiskResponseCache(directory: directory, maximumBytes: 256 * 1024)
        #expect(reopened.discardedFiles == 0 && reopened.count == cache.count)
        for index in 0..<32 {
            let url = URL(string: "https://example.com/\(index)")!
            #expect(reopened.cachedResponses(for: url) == cache.cachedResponses(for: url), "\(index)")
        }
    }
}
