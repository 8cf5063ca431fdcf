// Rewrites a real OCSP response to carry an extension `openssl ocsp` cannot add, and signs it again.
import Foundation
import WickTestSupport

/// Adds a responseExtensions field (RFC 6960 §4.2.1) holding one private extension to the
/// ResponseData of a DER OCSP response, then signs the new ResponseData with `signer`'s P-256
/// key (ecdsa-with-SHA256, by `openssl dgst`), keeping the responder certificates. Only for
/// responses without responseExtensions, which is what `openssl ocsp` makes for requests
/// without a nonce.
enum OCSPResponseEditor {
    /// The private OID the extension carries: 1.3.6.1.4.1.99999.1.
    static let oid = "1.3.6.1.4.1.99999.1"
    private static let oidDER: [UInt8] = [0x06, 0x09, 0x2B, 0x06, 0x01, 0x04, 0x01, 0x86, 0x8D, 0x1F, 0x01]
    private static let ecdsaWithSHA256: [UInt8] = [
        0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02,
    ]

    struct Malformed: Error {}

    /// The response with the extension added, `critical` or not, signed again by `signer`.
    static func addingExtension(critical: Bool, to response: [UInt8], signer: TestPKI.Identity, in directory: URL)
        throws -> [UInt8]
    {
        // OCSPResponse ::= SEQUENCE { responseStatus, [0] EXPLICIT ResponseBytes }
        let outer = try children(of: response)
        guard outer.count == 2 else { throw Malformed() }
        let responseBytes = try children(of: try children(of: outer[1])[0])  // [0] → ResponseBytes
        // BasicOCSPResponse ::= SEQUENCE { tbsResponseData, signatureAlgorithm, signature, [0] certs OPTIONAL }
        let basic = try children(of: try contents(of: responseBytes[1]))
        let responseData = try children(of: basic[0])
        // ResponseData ends with `responses` (a SEQUENCE) unless responseExtensions follow.
        guard responseData.last?.first == 0x30 else { throw Malformed() }
        // Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING (NULL) }
        let extensionDER = tlv(0x30, oidDER + (critical ? [0x01, 0x01, 0xFF] : []) + [0x04, 0x02, 0x05, 0x00])
        let newData = tlv(0x30, responseData.flatMap { $0 } + tlv(0xA1, tlv(0x30, extensionDER)))
        let signature = try sign(newData, with: signer, in: directory)
        let newBasic = tlv(
            0x30, newData + ecdsaWithSHA256 + tlv(0x03, [0x00] + signature) + basic.dropFirst(3).flatMap { $0 })
        let newResponseBytes = tlv(0x30, responseBytes[0] + tlv(0x04, newBasic))
        return tlv(0x30, outer[0] + tlv(0xA0, newResponseBytes))
    }

    private static func sign(_ data: [UInt8], with signer: TestPKI.Identity, in directory: URL) throws -> [UInt8] {
        let file = directory.appendingPathComponent("tbs-\(UUID().uuidString).der")
        let output = directory.appendingPathComponent("sig-\(UUID().uuidString).der")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: output)
        }
        try Data(data).write(to: file)
        try runCommand(
            "/usr/bin/openssl", ["dgst", "-sha256", "-sign", signer.privateKey.path, "-out", output.path, file.path])
        return Array(try Data(contentsOf: output))
    }

    /// One DER element: tag, definite length, contents.
    private static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        let count = contents.count
        let length: [UInt8] =
            count < 0x80
            ? [UInt8(count)]
            : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + contents
    }

    /// The contents of one DER element (definite lengths up to 0xFFFF).
    private static func contents(of element: [UInt8]) throws -> [UInt8] {
        let (header, length) = try header(element, at: 0)
        guard header + length == element.count else { throw Malformed() }
        return Array(element[header...])
    }

    /// The whole elements (tag, length and contents each) inside one constructed element.
    private static func children(of element: [UInt8]) throws -> [[UInt8]] {
        let body = try contents(of: element)
        var elements: [[UInt8]] = []
        var offset = 0
        while offset < body.count {
            let (header, length) = try header(body, at: offset)
            guard offset + header + length <= body.count else { throw Malformed() }
            elements.append(Array(body[offset..<offset + header + length]))
            offset += header + length
        }
        return elements
    }

    private static func header(_ bytes: [UInt8], at offset: Int) throws -> (header: Int, length: Int) {
        guard offset + 2 <= bytes.count else { throw Malformed() }
        let first = bytes[offset + 1]
        if first < 0x80 { return (2, Int(first)) }
        let count = Int(first & 0x7F)
        guard (1...2).contains(count), offset + 2 + count <= bytes.count else { throw Malformed() }
        let length = bytes[(offset + 2)..<(offset + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return (2 + count, length)
    }
}
