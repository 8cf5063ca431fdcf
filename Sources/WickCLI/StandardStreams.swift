// Writing to standard output and error, and reading standard input, with write(2) and read(2):
// unbuffered, in order, and never through Swift's `print` (whose buffer would reorder them).
import Glibc

/// The process's standard streams, as raw descriptors.
public enum StandardStreams {
    /// Standard output's descriptor.
    public static let output: Int32 = 1
    /// Standard error's descriptor.
    public static let error: Int32 = 2

    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and `EINTR`.
    /// - Returns: false when a write failed (a closed pipe, a full disk).
    @discardableResult
    public static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Bool {
        let buffer = Array(bytes)
        var written = 0
        while written < buffer.count {
            // SAFETY: write(2) reads at most `$0.count - written` bytes from the array's storage,
            // starting `written` bytes in, which stays within it; the storage outlives the call.
            let count = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += count
        }
        return true
    }

    /// Writes `text` to `descriptor`.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        write(Array(text.utf8), to: descriptor)
    }

    /// Standard input read to its end, or nil if reading failed.
    public static func readStandardInput() -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // SAFETY: read(2) writes at most `$0.count` bytes into the local array's storage and
            // returns how many, which bounds the slice appended below.
            let count = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes += chunk[0..<count]
        }
    }
}
