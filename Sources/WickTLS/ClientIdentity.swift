// The certificate and private key a client presents for mutual TLS.
internal import CWickOpenSSL

/// A client's identity for mutual TLS: its certificate chain (leaf first, then any
/// intermediates the server needs) and the leaf's private key. The key is kept as the PEM bytes
/// it was given and parsed by each `TLSContext` that uses it.
public struct ClientIdentity: Sendable, Hashable {
    /// Leaf first, then intermediates.
    public let certificateChain: [Certificate]
    /// The private key in PEM (PKCS#8, or the traditional RSA/EC forms), unencrypted.
    let privateKeyPEM: [UInt8]

    /// An identity from a PEM certificate chain and a PEM private key.
    /// - Throws: `CertificateError` if the chain cannot be read, `.invalidPrivateKey` if the key
    ///   cannot be read or does not match the leaf.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws(CertificateError) {
        let chain = try Certificate.chain(pemEncoded: certificateChainPEM)
        let key = Array(privateKeyPEM.utf8)
        try OpenSSLKeys.checkPrivateKey(pem: key, matches: chain[0])
        self.certificateChain = chain
        self.privateKeyPEM = key
    }

    /// An identity from a PKCS#12 (`.p12`/`.pfx`) archive.
    /// - Throws: `CertificateError.invalidPrivateKey` if the archive cannot be opened with
    ///   `passphrase` or holds no key and certificate.
    public init(pkcs12 bytes: [UInt8], passphrase: String) throws(CertificateError) {
        let (chain, key) = try OpenSSLKeys.openPKCS12(bytes, passphrase: passphrase)
        self.certificateChain = chain
        self.privateKeyPEM = key
    }
}
