// A mistake on the command line, and writing to standard error.
import Glibc

/// A mistake in the command line.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    // SAFETY: write(2) reads `bytes.count` bytes from the array's storage during the call.
    _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
}
