// A throwaway certificate authority made at test time with the openssl command: a root, an
// intermediate and leaves signed by it, written as PEM files into a directory.
public import Foundation

/// A test PKI: `root` signs `intermediate`, which signs leaves. Every key is EC P-256 (fast to
/// make); files are PEM. Nothing here is secret: the directory is deleted with the test run.
///
/// The default leaf, `server`, is valid for `localhost`, `127.0.0.1` and `::1`, the names the
/// test servers listen on. Tests that need hostile variants (expired, wrong host, self-signed)
/// issue more leaves with `issueLeaf`.
public struct TestPKI: Sendable {
    /// A certificate and its private key on disk.
    public struct Identity: Sendable {
        /// The certificate, PEM.
        public let certificate: URL
        /// The private key, PEM (PKCS#8, unencrypted).
        public let privateKey: URL

        /// An identity from its two files.
        public init(certificate: URL, privateKey: URL) {
            self.certificate = certificate
            self.privateKey = privateKey
        }
    }

    /// Where the files live.
    public let directory: URL
    /// The self-signed root CA, the one trust anchor clients are given.
    public let root: Identity
    /// The intermediate CA that signs every leaf.
    public let intermediate: Identity
    /// The leaf for localhost, 127.0.0.1 and ::1.
    public let server: Identity
    /// The server's chain as a server sends it: leaf then intermediate (no root).
    public let serverChain: URL
    /// A client certificate (`extendedKeyUsage=clientAuth`, CN `Wick Test Client`) signed by
    /// the intermediate, for mutual TLS.
    public let client: Identity
    /// The client's chain as a client sends it: leaf then intermediate.
    public let clientChain: URL

    /// Loads a PKI that `generate(in:)` made earlier (e.g. from `WICK_PKI_DIR`).
    public init(existingIn directory: URL) {
        self.directory = directory
        root = Self.identity(named: "root", in: directory)
        intermediate = Self.identity(named: "intermediate", in: directory)
        server = Self.identity(named: "server", in: directory)
        serverChain = directory.appendingPathComponent("server-chain.pem")
        client = Self.identity(named: "client", in: directory)
        clientChain = directory.appendingPathComponent("client-chain.pem")
    }

    /// Makes a root, an intermediate and the `server` leaf in `directory` (created if needed).
    /// - Throws: `TestSupportError.commandFailed` if the openssl command fails.
    public static func generate(in directory: URL) throws -> TestPKI {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pki = TestPKI(existingIn: directory)
        try pki.makeRoot()
        try pki.issue(
            name: "intermediate", subject: "/CN=Wick Test Intermediate CA", issuer: pki.root,
            extensions: [
                "basicConstraints=critical,CA:TRUE,pathlen:0",
                "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try pki.issueLeaf(named: "server", dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"])
        let chain = try Data(contentsOf: pki.server.certificate) + Data(contentsOf: pki.intermediate.certificate)
        try chain.write(to: pki.serverChain)
        try pki.issue(
            name: "client", subject: "/CN=Wick Test Client", issuer: pki.intermediate,
            extensions: [
                "basicConstraints=critical,CA:FALSE",
                "keyUsage=critical,digitalSignature",
                "extendedKeyUsage=clientAuth",
            ], days: 30)
        let clientChain = try Data(contentsOf: pki.client.certificate) + Data(contentsOf: pki.intermediate.certificate)
        try clientChain.write(to: pki.clientChain)
        return pki
    }

    /// Issues a server leaf signed by the intermediate, valid for `days` from now, for the given
    /// subject alternative names.
    /// - Throws: `TestSupportError.commandFailed` if the openssl command fails.
    @discardableResult
    public func issueLeaf(
        named name: String, dnsNames: [String], ipAddresses: [String] = [], days: Int = 30
    ) throws -> Identity {
        let sans = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        return try issue(
            name: name, subject: "/CN=\(dnsNames.first ?? ipAddresses.first ?? name)", issuer: intermediate,
            extensions: [
                "basicConstraints=critical,CA:FALSE",
                "keyUsage=critical,digitalSignature",
                "extendedKeyUsage=serverAuth",
                "subjectAltName=\(sans.joined(separator: ","))",
            ], days: days)
    }

    private func makeRoot() throws {
        try runCommand(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", root.privateKey.path, "-out", root.certificate.path, "-days", "3650",
                "-subj", "/CN=Wick Test Root CA",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
    }

    @discardableResult
    private func issue(
        name: String, subject: String, issuer: Identity, extensions: [String], days: Int = 3650
    ) throws -> Identity {
        let identity = Self.identity(named: name, in: directory)
        let request = directory.appendingPathComponent("\(name).csr")
        let extensionFile = directory.appendingPathComponent("\(name).ext")
        let lines = extensions + ["subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid"]
        try lines.joined(separator: "\n").write(to: extensionFile, atomically: true, encoding: .utf8)
        try runCommand(
            "/usr/bin/openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", identity.privateKey.path, "-out", request.path, "-subj", subject,
            ])
        try runCommand(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", request.path, "-CA", issuer.certificate.path, "-CAkey", issuer.privateKey.path,
                "-set_serial", String(UInt32.random(in: 1...UInt32.max)), "-days", String(days),
                "-extfile", extensionFile.path, "-out", identity.certificate.path,
            ])
        return identity
    }

    private static func identity(named name: String, in directory: URL) -> Identity {
        Identity(
            certificate: directory.appendingPathComponent("\(name).pem"),
            privateKey: directory.appendingPathComponent("\(name).key"))
    }
}
