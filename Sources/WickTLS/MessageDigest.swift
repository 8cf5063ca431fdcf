// One-shot message digests (MD5, SHA-256) through OpenSSL's EVP_Digest, for Digest authentication.
internal import CWickOpenSSL

/// Hashes bytes with OpenSSL's EVP interface. Package-visible so that Wick's Digest
/// authentication (RFC 7616) can hash without importing the C module; not public API.
/// Invariant: no OpenSSL object outlives a call (EVP_Digest allocates and frees its own context).
package enum MessageDigest: Sendable, CaseIterable {
    /// MD5 (RFC 1321): 16 bytes. Broken for collision resistance; Digest authentication still
    /// offers it, so it is here for that and nothing else.
    case md5
    /// SHA-256 (FIPS 180-4): 32 bytes.
    case sha256

    /// The digest's length in bytes.
    package var byteCount: Int {
        switch self {
        case .md5: 16
        case .sha256: 32
        }
    }

    /// The digest of `bytes`. Traps if OpenSSL fails, which for these built-in algorithms means
    /// the library is broken (out of memory or a FIPS provider refusing MD5 is not recoverable
    /// by the caller either).
    package func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        let algorithm: OpaquePointer? =
            switch self {
            case .md5: EVP_md5()
            case .sha256: EVP_sha256()
            }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // SAFETY: `input` and `output` are local arrays, so their buffers are exclusively ours; each
        // pointer is valid only inside its closure, and EVP_Digest keeps neither after it returns.
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                // SAFETY: EVP_Digest reads `source.count` bytes of `source` and writes at most
                // EVP_MAX_MD_SIZE bytes to `destination`, which holds that many; both buffers
                // outlive the call. A nil base address (empty input) is valid with a count of 0.
                EVP_Digest(source.baseAddress, source.count, destination.baseAddress, &length, algorithm, nil)
            }
        }
        precondition(status == 1, "MessageDigest.\(self): EVP_Digest failed: \(OpenSSLErrorQueue.drain())")
        precondition(Int(length) == byteCount, "MessageDigest.\(self): EVP_Digest wrote \(length) bytes")
        return Array(output.prefix(Int(length)))
    }

    /// The digest of `text`'s UTF-8 bytes, as lowercase hexadecimal (Digest authentication's
    /// form, RFC 7616 §3.4).
    package func hexHash(_ text: String) -> String {
        Self.hex(hash(text.utf8))
    }

    /// Lowercase hexadecimal, two digits per byte.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
