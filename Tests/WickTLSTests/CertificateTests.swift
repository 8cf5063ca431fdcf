// Certificate parsing: every field, DER and PEM, bundles, and damaged input.
import Foundation
import Testing
import WickTLS
import WickTestSupport

@Suite struct CertificateTests {
    @Test func parsesTheFieldsOfALeaf() async throws {
        let fixture = try await TLSFixture.get()
        let leaf = try fixture.certificate(fixture.valid)
        #expect(leaf.subject == "CN=localhost")
        #expect(leaf.issuer == "CN=Wick Test Intermediate CA")
        #expect(leaf.dnsNames == ["localhost"])
        #expect(leaf.ipAddresses == ["127.0.0.1", "::1"])
        #expect(!leaf.isCertificateAuthority)
        #expect(!leaf.isSelfIssued)
        #expect(leaf.ocspResponderURLs == [CertificateAuthority.ocspURL])
        #expect(leaf.crlDistributionPoints == [CertificateAuthority.crlURL])
        #expect(leaf.publicKeyAlgorithm == "id-ecPublicKey")
        #expect(leaf.publicKeyBits == 256)
        #expect(leaf.signatureAlgorithm == "ecdsa-with-SHA256")
        #expect(leaf.isValid(at: Date()))
        #expect(!leaf.serialNumber.isEmpty && leaf.serialNumber.allSatisfy(\.isHexDigit))
        let interval = leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore)
        #expect(abs(interval - 30 * 86_400) < 5)
    }

    @Test func parsesTheFieldsOfTheRoot() async throws {
        let fixture = try await TLSFixture.get()
        let root = try fixture.root()
        #expect(root.subject == "CN=Wick Test Root CA")
        #expect(root.isCertificateAuthority)
        #expect(root.isSelfIssued)
        #expect(root.dnsNames.isEmpty && root.ocspResponderURLs.isEmpty && root.crlDistributionPoints.isEmpty)
    }

    /// The fingerprint and the pin agree with what the openssl command computes.
    @Test func fingerprintAndPinMatchOpenSSL() async throws {
        let fixture = try await TLSFixture.get()
        let leaf = try fixture.certificate(fixture.valid)
        let fingerprint = try runCommand(
            "/usr/bin/openssl", ["x509", "-in", fixture.valid.certificate.path, "-noout", "-fingerprint", "-sha256"])
        #expect(
            fingerprint.trimmingCharacters(in: .whitespacesAndNewlines) == "sha256 Fingerprint="
                + leaf.sha256FingerprintHex)
        let pinCommand =
            "openssl x509 -in '\(fixture.valid.certificate.path)' -noout -pubkey"
            + " | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64"
        let pin = try runCommand("/bin/sh", ["-c", pinCommand])
        #expect(leaf.publicKey.pin == "sha256//" + pin.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try PublicKey(pin: leaf.publicKey.pin) == leaf.publicKey)
    }

    @Test func derAndPEMGiveTheSameCertificate() async throws {
        let fixture = try await TLSFixture.get()
        let fromPEM = try fixture.certificate(fixture.valid)
        let fromDER = try Certificate(derEncoded: fromPEM.derBytes)
        #expect(fromDER == fromPEM)
        #expect(fromDER.subject == fromPEM.subject)
    }

    @Test func aBundleGivesTheChainInOrder() async throws {
        let fixture = try await TLSFixture.get()
        let chain = try Certificate.chain(pemEncoded: String(contentsOf: fixture.pki.serverChain, encoding: .utf8))
        #expect(chain.map(\.subject) == ["CN=localhost", "CN=Wick Test Intermediate CA"])
    }

    @Test func rejectsDamagedInput() async throws {
        let fixture = try await TLSFixture.get()
        let der = try fixture.certificate(fixture.valid).derBytes
        #expect(throws: CertificateError.self) { try Certificate(derEncoded: Array(der.dropLast())) }
        #expect(throws: CertificateError.self) { try Certificate(derEncoded: der + [0]) }
        #expect(throws: CertificateError.self) { try Certificate(derEncoded: []) }
        #expect(throws: CertificateError.noCertificateInPEM) { try Certificate(pemEncoded: "hello") }
        let broken = "-----BEGIN CERTIFICATE-----\nAAAA!!!!\n-----END CERTIFICATE-----\n"
        #expect {
            try Certificate(pemEncoded: broken)
        } throws: { error in
            if case .invalidPEM = error as? CertificateError { true } else { false }
        }
    }

    @Test(arguments: ["sha256//", "sha1//AAAA", "sha256//AAAA", "sha256//not base64!"])
    func rejectsMalformedPins(_ pin: String) {
        #expect(throws: CertificateError.invalidPin(pin)) { try PublicKey(pin: pin) }
    }
}
