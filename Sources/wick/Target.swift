// Where a request goes: scheme, host, port and origin-form path, from a URL string.
import FoundationEssentials
import Glibc

/// An `http://` target taken apart for the layers below (which know nothing of URLs).
struct Target: CustomStringConvertible {
    let scheme: String
    let host: String
    let port: UInt16
    let path: String

    /// Parses `http://host[:port]/path?query`.
    /// - Throws: `UsageError` for anything else.
    init(_ string: String) throws {
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased(), let host = url.host() else {
            throw UsageError("not a URL: \(string)")
        }
        guard scheme == "http" || scheme == "https" else { throw UsageError("unsupported scheme: \(scheme)") }
        self.scheme = scheme
        self.host = host
        self.port = UInt16(url.port ?? (scheme == "https" ? 443 : 80))
        let query = url.query(percentEncoded: true).map { "?" + $0 } ?? ""
        let path = url.path(percentEncoded: true)
        self.path = (path.isEmpty ? "/" : path) + query
    }

    /// The value of the Host header: the port only when it is not the scheme's default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let defaultPort: UInt16 = scheme == "https" ? 443 : 80
        return port == defaultPort ? name : "\(name):\(port)"
    }

    var description: String { "\(scheme)://\(hostHeader)\(path)" }
}

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
