// Proves that WickTLS links the system's libssl/libcrypto and that headers and runtime agree.
import CWickOpenSSL
import Testing
import WickTLS

@Suite struct OpenSSLLinkTests {
    @Test func runtimeIsOpenSSL3AndMatchesTheHeaders() {
        #expect(OpenSSLLibrary.versionString.hasPrefix("OpenSSL 3."))
        // 0xMNN00PP0: the major version is the top nibble.
        #expect(OpenSSLLibrary.versionNumber >> 28 == 3)
        #expect(OpenSSLLibrary.versionNumber >> 28 == OpenSSLLibrary.headerVersionNumber >> 28)
    }

    @Test func sha256OfAKnownInputThroughLibcrypto() {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array("abc".utf8)
        _ = input.withUnsafeBufferPointer { source in
            digest.withUnsafeMutableBufferPointer { out in
                SHA256(source.baseAddress, source.count, out.baseAddress)
            }
        }
        let hex = digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
