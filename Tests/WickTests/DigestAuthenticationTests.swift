// Digest authentication: RFC 7616's worked example, the variants, and which challenge is answered.
import Foundation
import Testing
import WickCore
import WickTLS

@testable import Wick

@Suite struct DigestAuthenticationTests {
    /// RFC 7616 §3.9.1: the values of the example.
    static let realm = "http-auth@example.org"
    static let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    static let opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
    static let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    static let mufasa = HTTPCredential(user: "Mufasa", password: "Circle of Life")

    static func challenge(algorithm: String?, qop: String? = "auth, auth-int", extra: String = "") -> String {
        var parts = ["realm=\"\(realm)\""]
        if let qop { parts.append("qop=\"\(qop)\"") }
        if let algorithm { parts.append("algorithm=\(algorithm)") }
        parts.append("nonce=\"\(nonce)\"")
        parts.append("opaque=\"\(opaque)\"")
        return "Digest " + parts.joined(separator: ", ") + extra
    }

    static func response(_ fields: [String], status: HTTPStatus = .unauthorized) -> HTTPResponse {
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: "WWW-Authenticate", value: field) }
        return HTTPResponse(status: status, headers: headers, version: .http1_1)
    }

    static let request = HTTPRequest(
        method: .get, url: URL(string: "http://www.example.org/dir/index.html")!, headers: HTTPHeaders(), body: nil)

    static func answer(_ fields: [String], credential: HTTPCredential = mufasa, request: HTTPRequest = request)
        -> String?
    {
        HTTPChallengeResponder.authorization(
            answering: response(fields), to: request, with: credential, clientNonce: cnonce)?.value
    }

    /// The `response` parameter of an Authorization value.
    static func responseParameter(_ value: String?) throws -> String? {
        let value = try #require(value)
        return try HTTPAuthenticationChallenge.parse(value).first?.parameter("response")
    }

    @Test func rfc7616WorkedExampleWithSHA256() throws {
        let value = Self.answer([Self.challenge(algorithm: "SHA-256")])
        #expect(
            value
                == "Digest username=\"Mufasa\", realm=\"http-auth@example.org\", uri=\"/dir/index.html\", "
                + "algorithm=SHA-256, nonce=\"\(Self.nonce)\", nc=00000001, cnonce=\"\(Self.cnonce)\", qop=auth, "
                + "response=\"753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1\", "
                + "opaque=\"\(Self.opaque)\"")
    }

    @Test func rfc7616WorkedExampleWithMD5() throws {
        let value = Self.answer([Self.challenge(algorithm: "MD5")])
        #expect(try Self.responseParameter(value) == "8ca523f5e9506fed4657c9700eebdbec")
        #expect(value?.contains("algorithm=MD5") == true)
    }

    @Test func aMissingAlgorithmMeansMD5() throws {
        #expect(
            try Self.responseParameter(Self.answer([Self.challenge(algorithm: nil)]))
                == "8ca523f5e9506fed4657c9700eebdbec")
    }

    /// The RFC's two challenges in two fields (its order: SHA-256 first) and reversed: SHA-256 wins.
    @Test(arguments: [["SHA-256", "MD5"], ["MD5", "SHA-256"], ["md5", "sha-256"]])
    func theStrongestAlgorithmIsChosen(order: [String]) throws {
        let value = Self.answer(order.map { Self.challenge(algorithm: $0) })
        #expect(
            try Self.responseParameter(value)?.count == 64,
            "a SHA-256 response is 64 hex digits: \(value ?? "nil")")
    }

    @Test func bothChallengesInOneFieldAreSeen() throws {
        let field = Self.challenge(algorithm: "MD5") + ", " + Self.challenge(algorithm: "SHA-256")
        #expect(
            try Self.responseParameter(Self.answer([field]))
                == "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
    }

    /// Expected values computed independently with Python's hashlib from RFC 7616's formulas.
    @Test(arguments: [
        ("MD5-sess", "e783283f46242139c486a698fec7211d"),
        ("SHA-256-sess", "2fd51b3a77ad75bad6afad6003e818d767133c46d9e2749e7f5232ae1ea3efd7"),
    ])
    func sessionAlgorithms(algorithm: String, expected: String) throws {
        let value = Self.answer([Self.challenge(algorithm: algorithm)])
        #expect(try Self.responseParameter(value) == expected)
        #expect(value?.contains("algorithm=\(algorithm)") == true)
    }

    /// RFC 2069's form: no qop, so no nc or cnonce, and response = H(HA1:nonce:HA2).
    @Test(arguments: [
        ("MD5", "7b2cc3b30e75b4777ea31027084363fd"),
        ("SHA-256", "a1306b0595a6c7fe96c448631fb5cfbd5107bd1fe1da729d978dd7446b812363"),
    ])
    func legacyFormWithoutQop(algorithm: String, expected: String) throws {
        let value = try #require(Self.answer([Self.challenge(algorithm: algorithm, qop: nil)]))
        #expect(try Self.responseParameter(value) == expected)
        #expect(!value.contains("cnonce="))
        #expect(!value.contains("nc="))
        #expect(!value.contains("qop="))
    }

    @Test func userhashSendsTheHashedName() throws {
        let value = try #require(Self.answer([Self.challenge(algorithm: "SHA-256", extra: ", userhash=true")]))
        let parsed = try #require(try HTTPAuthenticationChallenge.parse(value).first)
        // SHA-256("Mufasa:http-auth@example.org"), computed with Python's hashlib.
        #expect(parsed.parameter("username") == "a947aad205e80e429958a387394944c6b496301e79f89d35a4cc23b6ee12b5b6")
        #expect(parsed.parameter("userhash") == "true")
        #expect(parsed.parameter("response") == "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
    }

    @Test func aNameWithQuotesIsEscapedAndANonASCIINameGoesAsAnExtValue() throws {
        let quoted = try #require(
            Self.answer(
                [Self.challenge(algorithm: "MD5")], credential: HTTPCredential(user: "a\"b\\c", password: "p")))
        #expect(quoted.hasPrefix("Digest username=\"a\\\"b\\\\c\","))
        #expect(try HTTPAuthenticationChallenge.parse(quoted).first?.parameter("username") == "a\"b\\c")
        let accented = try #require(
            Self.answer(
                [Self.challenge(algorithm: "MD5")], credential: HTTPCredential(user: "Jäsøn Doe", password: "p")))
        #expect(accented.hasPrefix("Digest username*=UTF-8''J%C3%A4s%C3%B8n%20Doe,"))
    }

    @Test func theURIIsTheRequestTargetWithItsQuery() throws {
        let request = HTTPRequest(
            method: .post, url: URL(string: "http://h/a%20b/c?x=1&y=%2F")!, headers: HTTPHeaders(), body: nil)
        let value = try #require(Self.answer([Self.challenge(algorithm: "MD5")], request: request))
        #expect(try HTTPAuthenticationChallenge.parse(value).first?.parameter("uri") == "/a%20b/c?x=1&y=%2F")
        let root = HTTPRequest(method: .get, url: URL(string: "http://h")!, headers: HTTPHeaders(), body: nil)
        #expect(HTTPChallengeResponder.requestTarget(of: root) == "/")
    }

    @Test(arguments: [
        // Only auth-int (hashes the body): not answered.
        challenge(algorithm: "MD5", qop: "auth-int"),
        // An algorithm Wick does not speak.
        challenge(algorithm: "SHA-512-256"),
        // -sess needs a cnonce, which needs a qop.
        challenge(algorithm: "MD5-sess", qop: nil),
        // No nonce, no realm.
        "Digest realm=\"r\", qop=\"auth\"",
        "Digest nonce=\"n\", qop=\"auth\"",
        // A token68 is not Digest's form.
        "Digest abc==",
    ])
    func unanswerableDigestChallenges(field: String) {
        #expect(Self.answer([field]) == nil)
    }

    @Test func digestIsPreferredToBasicAndBasicAnswersAlone() throws {
        let both = Self.answer(["Basic realm=\"x\"", Self.challenge(algorithm: "MD5")])
        #expect(both?.hasPrefix("Digest ") == true)
        let basic = Self.answer(
            ["Basic realm=\"x\", charset=\"UTF-8\""], credential: HTTPCredential(user: "user", password: "pässwd"))
        #expect(basic == "Basic " + Data("user:pässwd".utf8).base64EncodedString())
        // An unanswerable Digest falls back to Basic.
        #expect(
            Self.answer(["Basic realm=\"x\"", Self.challenge(algorithm: "SHA-512-256")])?.hasPrefix("Basic ") == true)
    }

    @Test func noAnswerForOtherSchemesAColonInABasicUserOrAMalformedField() {
        #expect(Self.answer(["Bearer realm=\"api\"", "Negotiate"]) == nil)
        #expect(Self.answer(["Basic realm=\"x\""], credential: HTTPCredential(user: "a:b", password: "p")) == nil)
        #expect(Self.answer(["Basic realm=\"x"]) == nil)
        #expect(Self.answer([]) == nil)
    }

    @Test func messageDigestKnownVectors() {
        #expect(MessageDigest.hex(MessageDigest.md5.hash([UInt8]())) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MessageDigest.md5.hexHash("abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(
            MessageDigest.sha256.hexHash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            MessageDigest.sha256.hexHash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func clientNoncesAreRandomHex() {
        let nonces = Set((0..<8).map { _ in DigestAuthorization.randomClientNonce() })
        #expect(nonces.count == 8)
        #expect(nonces.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }
}
