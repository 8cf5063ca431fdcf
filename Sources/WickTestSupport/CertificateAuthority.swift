// Hostile and revocation-aware certificates for TLS tests, made with `openssl ca`: expired,
// not yet valid, weak keys and signatures, self-signed leaves, revocations, CRLs and OCSP answers.
public import Foundation

/// A CA of a `TestPKI` (its intermediate by default, or any CA it issued, the root included) run
/// as an `openssl ca` database, so that tests can issue leaves and sub-CAs with any validity
/// window, key, digest, name or policy, revoke them, and get real CRLs and OCSP responses for
/// them (`openssl ca -gencrl`, `openssl ocsp -index ... -reqin ... -respout`, all offline).
///
/// Certificates it issues name its `ocspURLs` in their authority information access and its
/// `crlURLs` as their CRL distribution points; those URLs never reach a network: a test fetcher
/// answers them.
/// Every method runs the openssl command, which takes tens of milliseconds: make one authority
/// per test suite and issue every leaf the suite needs once.
public final class CertificateAuthority: Sendable {
    /// The OCSP responder URL written into the leaves of the default authority (the intermediate).
    public static let ocspURL = "http://ocsp.wick.test/"
    /// The CRL distribution point written into the leaves of the default authority.
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

    /// The PKI whose root is the trust anchor.
    public let pki: TestPKI
    /// The CA that signs what this authority issues.
    public let issuer: TestPKI.Identity
    /// The OCSP responder URLs written into what it issues, in order.
    public let ocspURLs: [String]
    /// The CRL distribution points written into what it issues, in order.
    public let crlURLs: [String]
    /// The `openssl ca` working directory (database, serial, config).
    public let directory: URL

    /// Held while `openssl ca` changes the database (issue, revoke, CRL numbers): suites share
    /// authorities and run in parallel.
    private let database = PthreadLocked(())
    private var config: URL { directory.appendingPathComponent("ca.cnf") }
    private var index: URL { directory.appendingPathComponent("index.txt") }

    /// Sets up the database for `pki`'s intermediate in `pki.directory/ca`, naming `ocspURL` and
    /// `crlURL`.
    /// - Throws: file-system errors.
    public convenience init(pki: TestPKI) throws {
        try self.init(
            pki: pki, issuer: pki.intermediate, name: "ca", ocspURLs: [Self.ocspURL], crlURLs: [Self.crlURL])
    }

    /// Sets up the database for the CA `issuer` (a certificate of `pki`) in `pki.directory/<name>`.
    /// - Throws: file-system errors.
    public init(pki: TestPKI, issuer: TestPKI.Identity, name: String, ocspURLs: [String], crlURLs: [String]) throws {
        self.pki = pki
        self.issuer = issuer
        self.ocspURLs = ocspURLs
        self.crlURLs = crlURLs
        directory = pki.directory.appendingPathComponent(name)
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
            [ unknown_critical ]
            1.3.6.1.4.1.99999.1 = critical,ASN1:NULL
            [ only_ca ]
            issuingDistributionPoint = critical,@only_ca_point
            [ only_ca_point ]
            onlyCA = TRUE
            [ own_point ]
            issuingDistributionPoint = critical,@own_point_name
            [ own_point_name ]
            fullname = URI:\(crlURLs.first ?? "http://crl.wick.test/none.crl")
            [ other_point ]
            issuingDistributionPoint = critical,@other_point_name
            [ other_point_name ]
            fullname = URI:http://crl.wick.test/other.crl

            """
        try text.write(to: config, atomically: true, encoding: .utf8)
    }

    /// Issues a server leaf signed by `issuer` and recorded in the database.
    /// - Parameters:
    ///   - commonName: the subject's CN; nil uses the first DNS name, else the first IP, else `name`.
    ///   - digest: the signature's digest (`sha256`; `sha1` for a weak signature).
    ///   - revocationInfo: whether to name `ocspURLs` and `crlURLs` in the leaf.
    ///   - certificatePolicies: policy OIDs for a certificatePolicies extension (none when empty).
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    @discardableResult
    public func issueLeaf(
        named name: String, dnsNames: [String], ipAddresses: [String] = [], commonName: String? = nil,
        validity: Validity = .days(30), key: KeyType = .p256, digest: String = "sha256", revocationInfo: Bool = true,
        certificatePolicies: [String] = []
    ) throws -> TestPKI.Identity {
        let sans = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        var extensions = [
            "basicConstraints=critical,CA:FALSE",
            "keyUsage=critical,digitalSignature,keyEncipherment",
            "extendedKeyUsage=serverAuth,clientAuth",
        ]
        if !sans.isEmpty { extensions.append("subjectAltName=\(sans.joined(separator: ","))") }
        if !certificatePolicies.isEmpty {
            extensions.append("certificatePolicies=\(certificatePolicies.joined(separator: ","))")
        }
        return try issue(
            named: name, commonName: commonName ?? dnsNames.first ?? ipAddresses.first ?? name,
            extensions: extensions + (revocationInfo ? revocationExtensions : []), validity: validity, key: key,
            digest: digest)
    }

    /// Issues a CA certificate signed by `issuer`, recorded in the database (so it can be revoked
    /// and appears in this authority's CRLs and OCSP answers). Make a `CertificateAuthority` with
    /// it as `issuer` to issue beneath it.
    /// - Parameters:
    ///   - policyConstraints: the value of a critical policyConstraints extension
    ///     (`requireExplicitPolicy:0`), or nil for none.
    ///   - certificatePolicies: policy OIDs for a certificatePolicies extension (none when empty).
    ///   - revocationInfo: whether to name `ocspURLs` and `crlURLs` in it.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func issueIntermediate(
        named name: String, policyConstraints: String? = nil, certificatePolicies: [String] = [],
        revocationInfo: Bool = true
    ) throws -> TestPKI.Identity {
        var extensions = ["basicConstraints=critical,CA:TRUE,pathlen:0", "keyUsage=critical,keyCertSign,cRLSign"]
        if let policyConstraints { extensions.append("policyConstraints=critical,\(policyConstraints)") }
        if !certificatePolicies.isEmpty {
            extensions.append("certificatePolicies=\(certificatePolicies.joined(separator: ","))")
        }
        return try issue(
            named: name, commonName: "Wick Test \(name)",
            extensions: extensions + (revocationInfo ? revocationExtensions : []),
            validity: .days(30), key: .p256, digest: "sha256")
    }

    /// Issues a delegated OCSP responder certificate signed by `issuer` (RFC 6960 §4.2.2.2):
    /// with the id-kp-OCSPSigning extended key usage when `ocspSigning`, with serverAuth only
    /// (which must not be accepted as a responder) otherwise.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func issueOCSPResponder(named name: String, ocspSigning: Bool = true) throws -> TestPKI.Identity {
        try issue(
            named: name, commonName: "Wick Test \(name)",
            extensions: [
                "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
                "extendedKeyUsage=\(ocspSigning ? "OCSPSigning" : "serverAuth")",
            ], validity: .days(30), key: .p256, digest: "sha256")
    }

    private var revocationExtensions: [String] {
        var extensions: [String] = []
        if !ocspURLs.isEmpty {
            extensions.append("authorityInfoAccess=\(ocspURLs.map { "OCSP;URI:\($0)" }.joined(separator: ","))")
        }
        if !crlURLs.isEmpty {
            extensions.append("crlDistributionPoints=\(crlURLs.map { "URI:\($0)" }.joined(separator: ","))")
        }
        return extensions
    }

    private func issue(
        named name: String, commonName: String, extensions: [String], validity: Validity, key: KeyType, digest: String
    ) throws -> TestPKI.Identity {
        let identity = identity(named: name)
        let request = directory.appendingPathComponent("\(name).csr")
        try runCommand(
            "/usr/bin/openssl",
            [
                "req", "-new", "-nodes", "-keyout", identity.privateKey.path, "-out", request.path,
                "-subj", "/CN=\(commonName)",
            ] + Self.keyArguments(key))
        let lines = extensions + ["subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid"]
        let extensionFile = directory.appendingPathComponent("\(name).ext")
        try lines.joined(separator: "\n").write(to: extensionFile, atomically: true, encoding: .utf8)
        var arguments = [
            "ca", "-batch", "-notext", "-config", config.path, "-cert", issuer.certificate.path,
            "-keyfile", issuer.privateKey.path, "-in", request.path, "-out", identity.certificate.path,
            "-extfile", extensionFile.path, "-md", digest,
        ]
        switch validity {
        case .days(let days):
            arguments += ["-days", String(days)]
        case .between(let start, let end):
            arguments += ["-startdate", Self.timestamp(start), "-enddate", Self.timestamp(end)]
        }
        try database.withLock { _ in _ = try runCommand("/usr/bin/openssl", arguments) }
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

    /// Revokes a certificate this authority issued.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func revoke(_ leaf: TestPKI.Identity, reason: String = "keyCompromise") throws {
        try database.withLock { _ in
            _ = try runCommand(
                "/usr/bin/openssl",
                [
                    "ca", "-batch", "-config", config.path, "-cert", issuer.certificate.path,
                    "-keyfile", issuer.privateKey.path, "-revoke", leaf.certificate.path,
                    "-crl_reason", reason,
                ])
        }
    }

    /// An extension a CRL can be made with, to test how clients judge it.
    public enum CRLExtension: String, Sendable {
        /// A critical extension no client understands (RFC 5280 §5.2: the CRL must not be used).
        case unknownCritical = "unknown_critical"
        /// A critical issuingDistributionPoint with onlyContainsCACerts (RFC 5280 §5.2.5): the
        /// CRL says nothing about end-entity certificates.
        case onlyCACertificates = "only_ca"
        /// A critical issuingDistributionPoint naming the first of `crlURLs` (RFC 5280 §5.2.5).
        case ownDistributionPoint = "own_point"
        /// A critical issuingDistributionPoint naming `http://crl.wick.test/other.crl`, where no
        /// certificate points (RFC 5280 §6.3.3 (b)(2): the CRL must not be used).
        case otherDistributionPoint = "other_point"
    }

    /// A DER CRL of `issuer` listing every revocation so far: valid for `days` from now, or
    /// for the window `between` (a stale CRL when it lies in the past), with `extension` if given.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func crl(days: Int = 1, between window: (Date, Date)? = nil, extension: CRLExtension? = nil)
        throws -> Data
    {
        let name = UUID().uuidString
        let pem = directory.appendingPathComponent("crl-\(name).pem")
        let der = directory.appendingPathComponent("crl-\(name).der")
        defer {
            try? FileManager.default.removeItem(at: pem)
            try? FileManager.default.removeItem(at: der)
        }
        var arguments = [
            "ca", "-batch", "-gencrl", "-config", config.path, "-cert", issuer.certificate.path,
            "-keyfile", issuer.privateKey.path, "-out", pem.path,
        ]
        if let (start, end) = window {
            arguments += ["-crl_lastupdate", Self.timestamp(start), "-crl_nextupdate", Self.timestamp(end)]
        } else {
            arguments += ["-crldays", String(days)]
        }
        if let `extension` { arguments += ["-crlexts", `extension`.rawValue] }
        try database.withLock { _ in _ = try runCommand("/usr/bin/openssl", arguments) }
        try runCommand("/usr/bin/openssl", ["crl", "-in", pem.path, "-outform", "DER", "-out", der.path])
        return try Data(contentsOf: der)
    }

    /// The DER OCSP response `issuer` gives to a DER OCSP request, from the database (good,
    /// revoked, or unknown), valid for `days` (nil: no nextUpdate at all). A `signer` other
    /// than `issuer` makes a forged response unless it is a delegated responder
    /// `issueOCSPResponder` made.
    /// - Throws: `TestSupportError.commandFailed` if openssl fails (e.g. a malformed request).
    public func ocspResponse(toRequest request: Data, days: Int? = 1, signer: TestPKI.Identity? = nil) throws -> Data {
        let signer = signer ?? issuer
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
                "ocsp", "-index", index.path, "-CA", issuer.certificate.path,
                "-rsigner", signer.certificate.path, "-rkey", signer.privateKey.path,
                "-reqin", requestFile.path, "-respout", responseFile.path,
            ] + (days.map { ["-ndays", String($0)] } ?? []))
        return try Data(contentsOf: responseFile)
    }

    /// The DER OCSP response for `leaf`, as a server would staple it (forged when `signer` is
    /// neither `issuer` nor a responder it delegated to).
    /// - Throws: `TestSupportError.commandFailed` if openssl fails.
    public func ocspResponse(for leaf: TestPKI.Identity, days: Int? = 1, signer: TestPKI.Identity? = nil) throws -> Data
    {
        let requestFile = directory.appendingPathComponent("ocsp-\(UUID().uuidString).req")
        defer { try? FileManager.default.removeItem(at: requestFile) }
        try runCommand(
            "/usr/bin/openssl",
            [
                "ocsp", "-issuer", issuer.certificate.path, "-cert", leaf.certificate.path,
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
