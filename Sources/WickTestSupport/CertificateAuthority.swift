// Hostile and revocation-aware certificates for TLS tests, made with `openssl ca`: expired,
// not yet valid, weak keys and signatures, self-signed leaves, revocations, CRLs and OCSP answers.
public import Foundation

/// The intermediate of a `TestPKI` run as an `openssl ca` database, so that tests can issue leaves
/// with any validity window, key or digest, revoke them, and get real CRLs and OCSP responses for
/// them (`openssl ca -gencrl`, `openssl ocsp -index ... -reqin ... -respout`, all offline).
///
/// Leaves it issues name `ocspURL` in their authority information access and `crlURL` as their
/// CRL distribution point; those URLs never reach a network: a test fetcher answers them.
/// Every method runs the openssl command, which takes tens of milliseconds: make one authority
/// per test suite and issue every leaf the suite needs once.
public final class CertificateAuthority: Sendable {
    /// The OCSP responder URL written into the leaves.
    public static let ocspURL = "http://ocsp.wick.test/"
    /// The CRL distribution point written into the leaves.
    public static let crlURL = "http://crl.wick.test/intermediate.crl"

    /// The key a leaf gets.
    public enum KeyType: Sendable {
        /// EC P-256 (the default; fast).
        case p256
        /// RSA with the given modulus size.
        case rsa(bits: Int)
    }

    /// A leaf's validity window.
    public enum Validity: Sendable {
        /// From now, for this many days.
        case days(Int)
        /// Between two instants.
        case between(Date, Date)
    }

    /// The PKI whose intermediate signs the leaves and whose root is the trust anchor.
    public let pki: TestPKI
    /// The `openssl ca` working directory (database, serial, config).
    public let directory: URL

    private var config: URL { directory.appendingPathComponent("ca.cnf") }
    private var index: URL { directory.appendingPathComponent("index.txt") }

    /// Sets up the database for `pki`'s intermediate in `pki.directory/ca`.
    /// - Throws: file-system errors.
    public init(pki: TestPKI) throws {
        self.pki = pki
        directory = pki.directory.appendingPathComponent("ca")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("issued"), withIntermediateDirectories: true)
        try Data().write(to: index)
        try "unique_subject = no\n".write(
            to: directory.appendingPathComponent("index.txt.attr"), atomically: true, encoding: .utf8)
        try "1000\n".write(to: directory.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
        try "1000\n".write(to: directory.appendingPathComponent("crlnumber"), atomically: true, encoding: .utf8)
        let text = """
            [ ca ]
            default_ca = wick
            [ wick ]
            dir = \(directory.path)
            database = $dir/index.txt
            new_certs_dir = $dir/issued
            serial = $dir/serial
            crlnumber = $dir/crlnumber
            default_md = sha256
            default_days = 30
            default_crl_days = 1
            policy = anything
            unique_subject = no
            copy_extensions = none
            email_in_dn = no
            [ anything ]
            commonName = supplied

            """
        try text.write(to: config, atomically: true, encoding: .utf8)
    }

    /// Issues a server leaf signed by the intermediate and recorded in the database.
    /// - Parameters:
    ///   - digest: the signature's digest (`sha256`; `sha1` for a weak signature).
    ///   - revocationInfo: whether to name `ocspURL` and `crlURL` in the leaf.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    @discardableResult
    public func issueLeaf(
        named name: String, dnsNames: [String], ipAddresses: [String] = [], validity: Validity = .days(30),
        key: KeyType = .p256, digest: String = "sha256", revocationInfo: Bool = true
    ) throws -> TestPKI.Identity {
        let identity = identity(named: name)
        let request = directory.appendingPathComponent("\(name).csr")
        try runCommand(
            "/usr/bin/openssl",
            [
                "req", "-new", "-nodes", "-keyout", identity.privateKey.path, "-out", request.path,
                "-subj", "/CN=\(dnsNames.first ?? ipAddresses.first ?? name)",
            ] + Self.keyArguments(key))
        let sans = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        var extensions = [
            "basicConstraints=critical,CA:FALSE",
            "keyUsage=critical,digitalSignature,keyEncipherment",
            "extendedKeyUsage=serverAuth,clientAuth",
            "subjectKeyIdentifier=hash",
            "authorityKeyIdentifier=keyid",
        ]
        if !sans.isEmpty { extensions.append("subjectAltName=\(sans.joined(separator: ","))") }
        if revocationInfo {
            extensions.append("authorityInfoAccess=OCSP;URI:\(Self.ocspURL)")
            extensions.append("crlDistributionPoints=URI:\(Self.crlURL)")
        }
        let extensionFile = directory.appendingPathComponent("\(name).ext")
        try extensions.joined(separator: "\n").write(to: extensionFile, atomically: true, encoding: .utf8)
        var arguments = [
            "ca", "-batch", "-notext", "-config", config.path, "-cert", pki.intermediate.certificate.path,
            "-keyfile", pki.intermediate.privateKey.path, "-in", request.path, "-out", identity.certificate.path,
            "-extfile", extensionFile.path, "-md", digest,
        ]
        switch validity {
        case .days(let days):
            arguments += ["-days", String(days)]
        case .between(let start, let end):
            arguments += ["-startdate", Self.timestamp(start), "-enddate", Self.timestamp(end)]
        }
        try runCommand("/usr/bin/openssl", arguments)
        return identity
    }

    /// Makes a self-signed leaf (its own issuer, not in the database) for `dnsNames`.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    @discardableResult
    public func selfSignedLeaf(named name: String, dnsNames: [String]) throws -> TestPKI.Identity {
        let identity = identity(named: name)
        let sans = dnsNames.map { "DNS:\($0)" }.joined(separator: ",")
        try runCommand(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-nodes", "-keyout", identity.privateKey.path, "-out", identity.certificate.path,
                "-days", "30", "-subj", "/CN=\(dnsNames.first ?? name)",
                "-addext", "subjectAltName=\(sans)", "-addext", "basicConstraints=critical,CA:FALSE",
            ]
                + Self.keyArguments(.p256))
        return identity
    }

    /// Revokes a leaf this authority issued.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func revoke(_ leaf: TestPKI.Identity, reason: String = "keyCompromise") throws {
        try runCommand(
            "/usr/bin/openssl",
            [
                "ca", "-batch", "-config", config.path, "-cert", pki.intermediate.certificate.path,
                "-keyfile", pki.intermediate.privateKey.path, "-revoke", leaf.certificate.path,
                "-crl_reason", reason,
            ])
    }

    /// A DER CRL of the intermediate listing every revocation so far, valid for `days`.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func crl(days: Int = 1) throws -> Data {
        let pem = directory.appendingPathComponent("crl.pem")
        let der = directory.appendingPathComponent("crl-\(UUID().uuidString).der")
        defer { try? FileManager.default.removeItem(at: der) }
        try runCommand(
            "/usr/bin/openssl",
            [
                "ca", "-batch", "-gencrl", "-config", config.path, "-cert", pki.intermediate.certificate.path,
                "-keyfile", pki.intermediate.privateKey.path, "-crldays", String(days), "-out", pem.path,
            ])
        try runCommand("/usr/bin/openssl", ["crl", "-in", pem.path, "-outform", "DER", "-out", der.path])
        return try Data(contentsOf: der)
    }

    /// The DER OCSP response the intermediate gives to a DER OCSP request, from the database
    /// (good, revoked, or unknown), valid for `days`. A `signer` other than the intermediate
    /// makes a forged response (its signature will not verify for a client).
    /// - Throws: `TestSupportError.commandFailed` if openssl fails (e.g. a malformed request).
    public func ocspResponse(toRequest request: Data, days: Int = 1, signer: TestPKI.Identity? = nil) throws -> Data {
        let signer = signer ?? pki.intermediate
        let name = UUID().uuidString
        let requestFile = directory.appendingPathComponent("ocsp-\(name).req")
        let responseFile = directory.appendingPathComponent("ocsp-\(name).resp")
        defer {
            try? FileManager.default.removeItem(at: requestFile)
            try? FileManager.default.removeItem(at: responseFile)
        }
        try request.write(to: requestFile)
        try runCommand(
            "/usr/bin/openssl",
            [
                "ocsp", "-index", index.path, "-CA", pki.intermediate.certificate.path,
                "-rsigner", signer.certificate.path, "-rkey", signer.privateKey.path,
                "-reqin", requestFile.path, "-respout", responseFile.path, "-ndays", String(days),
            ])
        return try Data(contentsOf: responseFile)
    }

    /// The DER OCSP response for `leaf`, as a server would staple it (forged when `signer` is
    /// not the intermediate).
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func ocspResponse(for leaf: TestPKI.Identity, days: Int = 1, signer: TestPKI.Identity? = nil) throws -> Data
    {
        let requestFile = directory.appendingPathComponent("ocsp-\(UUID().uuidString).req")
        defer { try? FileManager.default.removeItem(at: requestFile) }
        try runCommand(
            "/usr/bin/openssl",
            [
                "ocsp", "-issuer", pki.intermediate.certificate.path, "-cert", leaf.certificate.path,
                "-no_nonce", "-reqout", requestFile.path,
            ])
        return try ocspResponse(toRequest: try Data(contentsOf: requestFile), days: days, signer: signer)
    }

    private func identity(named name: String) -> TestPKI.Identity {
        TestPKI.Identity(
            certificate: directory.appendingPathComponent("\(name).pem"),
            privateKey: directory.appendingPathComponent("\(name).key"))
    }

    private static func keyArguments(_ key: KeyType) -> [String] {
        switch key {
        case .p256: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        case .rsa(let bits): ["-newkey", "rsa:\(bits)"]
        }
    }

    /// `YYYYMMDDHHMMSSZ` in UTC, the form `openssl ca -startdate/-enddate` takes.
    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }
}
