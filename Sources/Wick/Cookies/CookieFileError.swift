// Why a cookie file could not be read or written.

/// A cookie file (`FileCookieStorage`) that could not be read or written: the file and what
/// failed, in words. Corrupt lines are not errors (they are skipped, see
/// `FileCookieStorage.skippedLines`); this is for the file as a whole.
public struct CookieFileError: Error, Sendable, CustomStringConvertible {
    /// The file's path.
    public let path: String
    /// What failed: the call and the system's reason.
    public let reason: String

    /// "cookie file PATH: REASON".
    public var description: String { "cookie file \(path): \(reason)" }
}
