// curl's HSTS cache file: the format both ways, skipped lines, expiry at load, unlimited
// entries, atomic 0600 saves and the errors of a file that cannot be read or written.
import Foundation
import Testing
@testable import Wick

struct FileHSTSStorageTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    static func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("wick-hsts-\(UUID().uuidString).txt")
    }

    @Test func readsCurlsFormat() throws {
        // The format of curl's docs/HSTS.md: `[host name] "YYYYMMDD HH:MM:SS"`, dot-prefixed
        // for includeSubDomains, "#" comments.
        let (entries, skipped) = HSTSFile.parse(
            """
            # Your HSTS cache. https://curl.se/docs/hsts.html
            .example.com "20271231 23:59:59"
            www.example.org "unlimited"

            no-quotes.example 20271231 23:59:59
            bad-date.example "20271332 23:59:59"
            feb.example "20270230 00:00:00"
            127.0.0.1 "20271231 23:59:59"
            """)
        #expect(skipped == 4)
        #expect(entries.count == 2)
        #expect(entries[0].host == "example.com" && entries[0].includesSubdomains)
        #expect(entries[0].expiry == Date(timeIntervalSince1970: 1_830_297_599))
        #expect(entries[1] == HSTSFile.Entry(host: "www.example.org", includesSubdomains: false, expiry: nil))
    }

    @Test func writesWhatItReads() {
        let entries = [
            HSTSFile.Entry(host: "a.example", includesSubdomains: true, expiry: Date(timeIntervalSince1970: 1_830_297_599)),
            HSTSFile.Entry(host: "b.example", includesSubdomains: false, expiry: nil),
        ]
        let text = HSTSFile.serialize(entries)
        #expect(text.contains(".a.example \"20271231 23:59:59\"\n") && text.contains("b.example \"unlimited\"\n"))
        #expect(HSTSFile.parse(text).entries == entries && HSTSFile.parse(text).skipped == 0)
    }

    @Test func aStoreSurvivesASaveAndLoadAndDropsExpiredHosts() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try FileHSTSStorage(fileURL: url, now: Self.t0)
        #expect(store.isEmpty && store.skippedLines == 0)
        store.record(StrictTransportSecurity(maxAge: 3600, includesSubdomains: true), forHost: "long.example", now: Self.t0)
        store.record(StrictTransportSecurity(maxAge: 60, includesSubdomains: false), forHost: "short.example", now: Self.t0)
        try store.save(now: Self.t0)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let later = try FileHSTSStorage(fileURL: url, now: Self.t0.addingTimeInterval(120))
        #expect(later.requiresHTTPS(forHost: "sub.long.example", now: Self.t0.addingTimeInterval(120)))
        #expect(!later.requiresHTTPS(forHost: "short.example", now: Self.t0.addingTimeInterval(120)))
    }

    @Test func anUnreadableFileOrAnUnwritableDirectoryIsASpecificError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-hsts-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory where the file should be cannot be read as one.
        #expect {
            _ = try FileHSTSStorage(fileURL: directory)
        } throws: { error in
            if case .hstsFileFailed(let path, _) = error as? WickError { return path == directory.path }
            return false
        }
        let missing = directory.appendingPathComponent("no/such/dir/hsts.txt")
        let store = try FileHSTSStorage(fileURL: missing)
        #expect {
            try store.save()
        } throws: { error in
            if case .hstsFileFailed = error as? WickError { return true }
            return false
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
