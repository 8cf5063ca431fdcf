// Reads OpenSSL's thread-local error queue into readable text, so no error is left behind.
internal import CWickOpenSSL

/// OpenSSL's per-thread error queue. Every failing OpenSSL call leaves entries there; the code
/// that sees the failure drains them at once so the next call on this thread starts clean.
enum OpenSSLErrorQueue {
    /// Empties the queue and returns its entries as one line ("" when it was empty).
    static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            // SAFETY: ERR_error_string_n writes at most `count` bytes, NUL-terminated, into our buffer.
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }

    /// Empties the queue, returning the reason code of the first entry (0 when empty).
    static func drainFirstReason() -> (library: Int32, reason: Int32, text: String) {
        let code = ERR_peek_error()
        let text = drain()
        return (cwick_ERR_GET_LIB(code), cwick_ERR_GET_REASON(code), text)
    }
}
