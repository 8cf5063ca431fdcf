// The HSTS store in curl's HSTS cache file: read when made, written atomically when saved.
public import FoundationEssentials
import WickReactor

/// An `HSTSStorage` kept in curl's HSTS cache file (`curl --hsts FILE`, `HSTSFile`'s format),
/// so known hosts survive a restart and are shared with curl. The file is read when the store
/// is made (a missing file is an empty store; a line that does not parse is skipped and
/// counted in `skippedLines`; an expired entry is dropped); changes live in memory
/// (`InMemoryHSTSStorage`) until `save()`, which writes a new file with mode 0600 and renames
/// it over the old one, so the file is always whole.
public final class FileHSTSStorage: HSTSStorage {
    /// The file.
    public let fileURL: URL
    /// The lines of the file that could not be read when the store was made.
    public let skippedLines: Int
    private let memory: InMemoryHSTSStorage

    /// A store with the hosts of the file at `fileURL` not expired at `now`.
    /// - Parameter fileURL: the cache file; a missing file is an empty store.
    /// - Parameter now: the time entries' expiry is compared with.
    /// - Parameter maximumHosts: as `InMemoryHSTSStorage`'s.
    /// - Throws: `WickError.hstsFileFailed` when the file exists but cannot be read.
    public init(
        fileURL: URL, now: Date = Date(), maximumHosts: Int = InMemoryHSTSStorage.defaultMaximumHosts
    ) throws(WickError) {
        self.fileURL = fileURL
        memory = InMemoryHSTSStorage(maximumHosts: maximumHosts)
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            skippedLines = 0
            return
        } catch {
            throw .hstsFileFailed(path: fileURL.path, reason: "cannot be read: \(error)")
        }
        let (entries, skipped) = HSTSFile.parse(String(decoding: data, as: UTF8.self))
        skippedLines = skipped
        for entry in entries where entry.expiry.map({ $0 > now }) ?? true {
            memory.restore(
                host: entry.host, expiry: entry.expiry ?? .distantFuture, includesSubdomains: entry.includesSubdomains)
        }
    }

    /// Writes every host not expired at `now` to the file, atomically, with mode 0600.
    /// - Throws: `WickError.hstsFileFailed` naming the call that failed (the directory is
    ///   missing or not writable, the disk is full); the old file is then untouched.
    public func save(now: Date = Date()) throws(WickError) {
        let entries = memory.recordedHosts(now: now).map { host in
            HSTSFile.Entry(
                host: host.name, includesSubdomains: host.includesSubdomains,
                expiry: host.expiry == .distantFuture ? nil : host.expiry)
        }
        let path = fileURL.path
        do throws(FileIOError) {
            try FileIO.system.replaceAtomically(path, with: Array(HSTSFile.serialize(entries).utf8), permissions: 0o600)
        } catch {
            throw .hstsFileFailed(path: path, reason: error.description)
        }
    }

    /// Records `policy` in memory (see `InMemoryHSTSStorage`); not saved until `save()`.
    public func record(_ policy: StrictTransportSecurity, forHost host: String, now: Date) {
        memory.record(policy, forHost: host, now: now)
    }

    /// Whether `host` is known at `now` (see `InMemoryHSTSStorage`).
    public func requiresHTTPS(forHost host: String, now: Date) -> Bool {
        memory.requiresHTTPS(forHost: host, now: now)
    }

    /// Whether no host is known.
    public var isEmpty: Bool { memory.isEmpty }
}
