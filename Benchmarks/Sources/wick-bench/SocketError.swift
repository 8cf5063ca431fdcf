// The error the benchmark's own socket code throws.
import Glibc

/// Errors from the benchmark's own socket code.
struct SocketError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
