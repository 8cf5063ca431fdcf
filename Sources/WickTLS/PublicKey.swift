// A subject public key, identified the way pinning identifies it: SHA-256 of its SPKI.

/// A public key, identified by the SHA-256 of its DER SubjectPublicKeyInfo: the identity that
/// HPKP, curl's `--pinnedpubkey` and Alamofire's key pinning compare. Get one from a certificate
/// (`certificate.publicKey`) or from a curl-style pin.
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    /// SHA-256 of the DER SubjectPublicKeyInfo.
    public let spkiSHA256: [UInt8]

    /// A key from the SHA-256 of its SubjectPublicKeyInfo.
    /// - Precondition: `spkiSHA256` is 32 bytes.
    public init(spkiSHA256: [UInt8]) {
        precondition(spkiSHA256.count == 32, "a SHA-256 digest is 32 bytes, got \(spkiSHA256.count)")
        self.spkiSHA256 = spkiSHA256
    }

    /// A key from curl's pin form, `sha256//` followed by the base64 SHA-256 of the SPKI.
    /// - Throws: `CertificateError.invalidPin` if `pin` is not in that form.
    public init(pin: String) throws(CertificateError) {
        let prefix = "sha256//"
        guard pin.hasPrefix(prefix), let digest = Base64.decode(String(pin.dropFirst(prefix.count))),
            digest.count == 32
        else { throw .invalidPin(pin) }
        self.spkiSHA256 = digest
    }

    /// The key in a public key file, PEM (`-----BEGIN PUBLIC KEY-----`) or DER
    /// SubjectPublicKeyInfo, as curl's `--pinnedpubkey FILE` takes it (`openssl pkey -pubout`
    /// writes one).
    /// - Throws: `CertificateError.invalidPublicKey` if OpenSSL reads no public key from it.
    public init(keyFile bytes: [UInt8]) throws(CertificateError) {
        self.init(spkiSHA256: MessageDigest.sha256.hash(try OpenSSLKeys.subjectPublicKeyInfo(ofKeyFile: bytes)))
    }

    /// The keys of a `;`-separated list of pins, curl's `--pinnedpubkey` form
    /// (`sha256//A;sha256//B`); spaces around each pin and empty entries are ignored.
    /// - Throws: `CertificateError.invalidPin` for the first pin not in the `sha256//` form, or
    ///   with the whole list when it holds no pin at all.
    public static func pins(fromList list: String) throws(CertificateError) -> [PublicKey] {
        var keys: [PublicKey] = []
        for pin in list.split(separator: ";") where pin.contains(where: { $0 != " " }) {
            keys.append(try PublicKey(pin: String(pin.filter { $0 != " " })))
        }
        guard !keys.isEmpty else { throw .invalidPin(list) }
        return keys
    }

    /// The curl pin form: `sha256//` + base64(SHA-256(SPKI)).
    public var pin: String { "sha256//" + Base64.encode(spkiSHA256) }

    /// The pin form.
    public var description: String { pin }
}
