// A cookie store backed by a Netscape cookie file (curl's -b/-c): read when made, written
// atomically when saved.
public import FoundationEssentials
import WickReactor

/// An `InMemoryCookieStorage` read from a cookie file in the format curl uses
/// (`NetscapeCookieFile`) and written back to it by `save()`, as `curl -b FILE -c FILE` does.
///
/// Reading never fails on a line: corrupt lines are skipped and listed in `skippedLines`, and
/// a missing file is an empty store. `save()` writes every cookie not expired, session cookies
/// included (expiry 0, as curl writes them), to a new file beside the old one, created with mode
/// 0600 (cookies are credentials), then renames it over the old one, so a reader sees either
/// file whole and a crash mid-write loses nothing. Nothing is written unless you call `save()`.
public final class FileCookieStorage: CookieStorage {
    /// The cookie file.
    public let fileURL: URL
    /// The lines of the file that were skipped when it was read, with the reason for each.
    public let skippedLines: [NetscapeCookieFile.SkippedLine]
    /// The cookies, in memory, with the limits.
    private let memory: InMemoryCookieStorage

    /// A store with the cookies of the file at `fileURL` not expired at `now` (none when the
    /// file does not exist), within the limits (`InMemoryCookieStorage`).
    /// - Throws: `CookieFileError` when the file exists but cannot be read.
    public init(
        fileURL: URL, now: Date = Date(),
        maximumCookiesPerDomain: Int = InMemoryCookieStorage.defaultMaximumCookiesPerDomain,
        maximumCookies: Int = InMemoryCookieStorage.defaultMaximumCookies
    ) throws(CookieFileError) {
        self.fileURL = fileURL
        memory = InMemoryCookieStorage(maximumCookiesPerDomain: maximumCookiesPerDomain, maximumCookies: maximumCookies)
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            skippedLines = []
            return
        } catch {
            throw CookieFileError(path: fileURL.path, reason: "cannot be read: \(error)")
        }
        let (cookies, skipped) = NetscapeCookieFile.parse(data, now: now)
        skippedLines = skipped
        for cookie in cookies { memory.insert(cookie, now: now) }
    }

    /// Writes every cookie not expired at `now` to the file, atomically, with mode 0600.
    /// - Throws: `CookieFileError` naming the call that failed (the directory is missing or
    ///   not writable, the disk is full); the old file is then untouched.
    public func save(now: Date = Date()) throws(CookieFileError) {
        let text = NetscapeCookieFile.serialize(memory.allCookies(now: now))
        let path = fileURL.path
        do throws(FileIOError) {
            try FileIO.system.replaceAtomically(path, with: Array(text.utf8), permissions: 0o600)
        } catch {
            throw CookieFileError(path: path, reason: error.description)
        }
    }

    /// Whether no cookie is stored (`InMemoryCookieStorage.isEmpty`).
    public var isEmpty: Bool { memory.isEmpty }

    /// Parses and stores each field's cookie (see `InMemoryCookieStorage`); not saved until
    /// `save()`.
    public func storeCookies(from setCookieFields: [String], for url: URL, now: Date) {
        memory.storeCookies(from: setCookieFields, for: url, now: now)
    }

    /// The cookies a request to `url` sends at `now`, in their `Cookie` field's order.
    public func cookies(for url: URL, now: Date) -> [Cookie] {
        memory.cookies(for: url, now: now)
    }

    /// The `Cookie` field's value for a request to `url` at `now`, or nil.
    public func cookieFieldValue(for url: URL, now: Date) -> String? {
        memory.cookieFieldValue(for: url, now: now)
    }

    /// Stores `cookie` as it is (see `InMemoryCookieStorage.insert`).
    public func insert(_ cookie: Cookie, now: Date = Date()) {
        memory.insert(cookie, now: now)
    }

    /// Every cookie not expired at `now`, oldest first.
    public func allCookies(now: Date = Date()) -> [Cookie] {
        memory.allCookies(now: now)
    }

    /// Removes every cookie (the file changes at the next `save()`).
    public func removeAll() {
        memory.removeAll()
    }
}
