// The file-backed store: read when made (a missing file is empty, corrupt lines are listed),
// saved atomically with mode 0600, and understood by curl both ways.
import Foundation
import Testing
import WickTestSupport
@testable import Wick

struct FileCookieStorageTests {
    let now = CookieJarTests.t0

    /// A fresh directory, removed by the caller.
    private static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wick-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aMissingFileIsAnEmptyStoreAndSaveCreatesItPrivate() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jar.txt")
        let storage = try FileCookieStorage(fileURL: file, now: now)
        #expect(storage.allCookies(now: now).isEmpty && storage.skippedLines.isEmpty)
        storage.storeCookies(
            from: ["a=1; Max-Age=3600", "b=2; Domain=example.com; Secure; HttpOnly"], for: URL(string: "https://www.example.com/x/y")!,
            now: now)
        try storage.save(now: now)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // Nothing but the file is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["jar.txt"])
        let reread = try FileCookieStorage(fileURL: file, now: now + 1)
        #expect(reread.cookieFieldValue(for: URL(string: "https://www.example.com/x/z")!, now: now + 1) == "a=1; b=2")
        #expect(reread.cookieFieldValue(for: URL(string: "https://example.com/x/")!, now: now + 1) == "b=2")
        // Saved again after a change: the file is replaced whole.
        reread.removeAll()
        reread.insert(Cookie(name: "c", value: "3", domain: "h.test", creationTime: now), now: now)
        try reread.save(now: now)
        #expect(try FileCookieStorage(fileURL: file, now: now).allCookies(now: now).map(\.name) == ["c"])
        // An existing file's wider mode does not survive a save.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        try reread.save(now: now)
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func corruptLinesAreSkippedAndListed() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jar.txt")
        try Data("garbage\nh.test\tFALSE\t/\tFALSE\t0\tok\t1\n\u{0}\u{0}\n".utf8).write(to: file)
        let storage = try FileCookieStorage(fileURL: file, now: now)
        #expect(storage.allCookies(now: now).map(\.name) == ["ok"])
        #expect(storage.skippedLines.map(\.number) == [1, 3])
    }

    @Test func unreadableAndUnwritablePathsThrow() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: CookieFileError.self) { try FileCookieStorage(fileURL: directory, now: now) }
        let storage = try FileCookieStorage(fileURL: directory.appendingPathComponent("missing/jar.txt"), now: now)
        storage.insert(Cookie(name: "a", value: "1", domain: "h.test", creationTime: now), now: now)
        let error = try #require(throws: CookieFileError.self) { try storage.save(now: now) }
        #expect(error.reason.hasPrefix("open "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func limitsApplyToWhatIsRead() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jar.txt")
        let lines = (0..<80).map { "h.test\tFALSE\t/\tFALSE\t0\tc\($0)\tv" }
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let storage = try FileCookieStorage(fileURL: file, now: now, maximumCookiesPerDomain: 50)
        #expect(storage.allCookies(now: now).count == 50)
    }
}

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct FileCookieStorageCurlTests {
    @Test func curlReadsWhatWickWritesAndWickReadsWhatCurlWrites() async throws {
        let base = try TestEnvironment.httpbin().base
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jar = directory.appendingPathComponent("jar.txt")

        // Wick stores httpbin's cookies and saves them; curl -b sends them.
        let storage = try FileCookieStorage(fileURL: jar)
        let session = Session(configuration: { var c = Session.Configuration(); c.cookieStorage = storage; return c }())
        _ = try await session.request("\(base)/cookies/set?from=wick").validate().serializingData().value
        await session.shutdown()
        try storage.save()
        let sent = try runCommand("/usr/bin/curl", ["-s", "-b", jar.path, "\(base)/cookies"])
        #expect(try httpbinJSON(Data(sent.utf8))["cookies"] as? [String: String] == ["from": "wick"])

        // curl -c writes its jar; Wick reads it and sends the cookie.
        let curlJar = directory.appendingPathComponent("curl.txt")
        try runCommand("/usr/bin/curl", ["-s", "-L", "-c", curlJar.path, "\(base)/cookies/set?from=curl"])
        let read = try FileCookieStorage(fileURL: curlJar)
        #expect(read.skippedLines.isEmpty)
        let second = Session(configuration: { var c = Session.Configuration(); c.cookieStorage = read; return c }())
        let data = try await second.request("\(base)/cookies").validate().serializingData().value
        #expect(try httpbinJSON(data)["cookies"] as? [String: String] == ["from": "curl"])
        await second.shutdown()
    }
}
