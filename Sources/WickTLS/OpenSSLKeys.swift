// The OpenSSL bridge for private keys: PEM and PKCS#12 in, EVP_PKEY objects out, always freed.
internal import CWickOpenSSL

/// Private-key loading. Invariant: every `EVP_PKEY`, `BIO`, `PKCS12` and stack created here is
/// freed before the function returns, except the key `makePrivateKey` hands to its caller.
enum OpenSSLKeys {
    /// A new `EVP_PKEY` from PEM; the caller frees it with `EVP_PKEY_free`.
    static func makePrivateKey(pem: [UInt8]) throws(CertificateError) -> OpaquePointer {
        let key: OpaquePointer? = pem.withUnsafeBufferPointer { buffer in
            // SAFETY: the memory BIO reads our buffer, which outlives it (freed before return).
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw .invalidPrivateKey(reason: OpenSSLErrorQueue.drain()) }
        return key
    }

    /// Checks that the PEM key is readable and is the private half of `certificate`'s key.
    static func checkPrivateKey(pem: [UInt8], matches certificate: Certificate) throws(CertificateError) {
        let key = try makePrivateKey(pem: pem)
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate.x509.pointer, key) == 1 else {
            let detail = OpenSSLErrorQueue.drain()
            throw .invalidPrivateKey(
                reason: "the key does not match the certificate \(certificate.subject)"
                    + (detail.isEmpty ? "" : " (\(detail))"))
        }
    }

    /// The DER SubjectPublicKeyInfo of a public key file, PEM (`PUBLIC KEY`) or DER, as OpenSSL
    /// re-encodes it (so only a key OpenSSL can read passes, and both forms of one key agree).
    static func subjectPublicKeyInfo(ofKeyFile bytes: [UInt8]) throws(CertificateError) -> [UInt8] {
        let fromPEM: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            // SAFETY: the memory BIO reads our buffer, which outlives it (freed before return).
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        if fromPEM == nil { ERR_clear_error() }
        // SAFETY: d2i_PUBKEY reads at most `count` bytes of our buffer, valid inside the closure.
        let key: OpaquePointer? =
            fromPEM
            ?? bytes.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
        guard let key else {
            throw .invalidPublicKey(reason: "neither a PEM PUBLIC KEY nor a DER key: " + OpenSSLErrorQueue.drain())
        }
        defer { EVP_PKEY_free(key) }
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { throw .invalidPublicKey(reason: OpenSSLErrorQueue.drain()) }
        var der = [UInt8](repeating: 0, count: Int(length))
        // SAFETY: i2d writes exactly `length` bytes (the size it reported) into `der`'s buffer.
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        guard written == length else { throw .invalidPublicKey(reason: OpenSSLErrorQueue.drain()) }
        return der
    }

    /// The chain (leaf first) and the PEM private key of a PKCS#12 archive.
    static func openPKCS12(_ bytes: [UInt8], passphrase: String) throws(CertificateError) -> ([Certificate], [UInt8]) {
        // SAFETY: d2i_PKCS12 reads `count` bytes of our buffer; every object it and PKCS12_parse
        // return is freed by the defers below.
        let archive: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let archive else { throw .invalidPrivateKey(reason: "not PKCS#12: " + OpenSSLErrorQueue.drain()) }
        defer { PKCS12_free(archive) }
        var key: OpaquePointer?
        var leaf: OpaquePointer?
        var extra: OpaquePointer?
        guard PKCS12_parse(archive, passphrase, &key, &leaf, &extra) == 1, let key, let leaf else {
            throw .invalidPrivateKey(reason: "cannot open the PKCS#12 archive: " + OpenSSLErrorQueue.drain())
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(leaf)
            if let extra { cwick_sk_X509_pop_free(extra) }
        }
        var chain = [X509Parsing.certificate(from: leaf)]
        if let extra {
            for index in 0..<cwick_sk_X509_num(extra) {
                if let x509 = cwick_sk_X509_value(extra, index) { chain.append(X509Parsing.certificate(from: x509)) }
            }
        }
        guard let bio = BIO_new(BIO_s_mem()) else { throw .invalidPrivateKey(reason: OpenSSLErrorQueue.drain()) }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
            throw .invalidPrivateKey(reason: OpenSSLErrorQueue.drain())
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = cwick_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { throw .invalidPrivateKey(reason: "empty key") }
        // SAFETY: the bytes belong to the BIO, copied before it is freed.
        let pem = Array(UnsafeRawBufferPointer(start: data, count: length))
        return (chain, pem)
    }
}
