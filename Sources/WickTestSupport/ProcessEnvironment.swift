// One lock for the process's environment: tests that change it and code that starts processes
// (which copies it) never run at once.
import Foundation

/// Serialises changes to the process's environment with the starting of child processes.
/// `posix_spawn` reads `environ` while it spawns; a `setenv` on another thread at that moment
/// can free the block it is reading (a crash seen when a trust-store test set `SSL_CERT_FILE`
/// while a cURL test started `/bin/sh`). Every process start in the tests and their support
/// (`SpawnedProcess`), and every environment change, goes through `withLock`.
public enum ProcessEnvironment {
    private static let lock = NSLock()

    /// Runs `body` holding the environment lock (not reentrant).
    public static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
