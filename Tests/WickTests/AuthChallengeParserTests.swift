// The WWW-Authenticate parser: challenge lists, parameters, token68, quoted strings, errors with offsets.
import Testing
import WickCore

@testable import Wick

@Suite struct AuthChallengeParserTests {
    typealias Challenge = HTTPAuthenticationChallenge

    static let valid: [(String, [Challenge])] = [
        ("Basic", [Challenge(scheme: "Basic")]),
        ("Basic realm=\"x\"", [Challenge(scheme: "Basic", parameters: ["realm": "x"])]),
        // RFC 9110 §11.6.1's example: two challenges, one with a list-valued parameter.
        (
            "Basic realm=\"simple\", Newauth realm=\"apps\", type=1, title=\"Login to \\\"apps\\\"\"",
            [
                Challenge(scheme: "Basic", parameters: ["realm": "simple"]),
                Challenge(scheme: "Newauth", parameters: ["realm": "apps", "type": "1", "title": "Login to \"apps\""]),
            ]
        ),
        // token68, with and without padding, followed by another challenge.
        (
            "Negotiate abc+/-._~==, Basic",
            [Challenge(scheme: "Negotiate", token68: "abc+/-._~=="), Challenge(scheme: "Basic")]
        ),
        ("Bearer dG9rZW4", [Challenge(scheme: "Bearer", token68: "dG9rZW4")]),
        // A lone `name=` is, by the grammar, a token68 (RFC 9110 §11.2 allows the ambiguity).
        ("Basic realm=, Digest", [Challenge(scheme: "Basic", token68: "realm="), Challenge(scheme: "Digest")]),
        // Names fold to lowercase; BWS around "="; tokens as values; HTAB as OWS.
        (
            "Digest REALM = \"r\" ,\tAlgorithm=SHA-256 , qop=\"auth,auth-int\"",
            [Challenge(scheme: "Digest", parameters: ["realm": "r", "algorithm": "SHA-256", "qop": "auth,auth-int"])]
        ),
        // Empty list elements are skipped (RFC 9110 §5.6.1).
        (
            ", ,Basic realm=\"a\",, , Digest nonce=\"n\" ,",
            [
                Challenge(scheme: "Basic", parameters: ["realm": "a"]),
                Challenge(scheme: "Digest", parameters: ["nonce": "n"]),
            ]
        ),
        // Schemes without parameters in a list; a quoted comma stays inside its value.
        (
            "A, B x=\"1,2\", C",
            [Challenge(scheme: "A"), Challenge(scheme: "B", parameters: ["x": "1,2"]), Challenge(scheme: "C")]
        ),
        // An empty quoted string, and obs-text (UTF-8) inside one.
        (
            "Basic realm=\"\", charset=\"tëst\"",
            [Challenge(scheme: "Basic", parameters: ["realm": "", "charset": "tëst"])]
        ),
        ("", []),
        ("  ", []),
    ]

    @Test(arguments: valid)
    func parses(input: String, expected: [Challenge]) throws {
        #expect(try Challenge.parse(input) == expected)
    }

    static let invalid: [(String, Challenge.ParseError)] = [
        ("=x", .expectedScheme(at: 0)),
        ("Basic\"x\"", .expectedSpaceAfterScheme(at: 5)),
        ("Basic realm=\"x\" extra", .expectedComma(at: 16)),
        ("Basic realm=\"x\", a=", .expectedValue(at: 19)),
        ("Basic a=\"x", .unterminatedQuotedString(at: 8)),
        ("Basic a=\"x\\", .unterminatedQuotedString(at: 8)),
        ("Basic a=\"x\u{01}\"", .invalidQuotedStringByte(at: 10)),
        ("Basic a=\"x\\\u{7F}\"", .invalidQuotedStringByte(at: 11)),
        ("Basic realm=\"a\", REALM=\"b\"", .duplicateParameter(name: "REALM", at: 17)),
        ("Basic a=b c", .expectedComma(at: 10)),
    ]

    @Test(arguments: invalid)
    func refuses(input: String, expected: Challenge.ParseError) {
        #expect(throws: expected) { try Challenge.parse(input) }
    }

    @Test func challengesAcrossFieldsSkipAMalformedLine() {
        var headers = HTTPHeaders()
        headers.add(name: "WWW-Authenticate", value: "Basic realm=\"a\"")
        headers.add(name: "www-authenticate", value: "Digest realm=\"unterminated")
        headers.add(name: "WWW-Authenticate", value: "Bearer, Digest nonce=n")
        headers.add(name: "Proxy-Authenticate", value: "Basic realm=\"proxy\"")
        #expect(
            Challenge.challenges(in: headers) == [
                Challenge(scheme: "Basic", parameters: ["realm": "a"]), Challenge(scheme: "Bearer"),
                Challenge(scheme: "Digest", parameters: ["nonce": "n"]),
            ])
        #expect(Challenge.challenges(in: headers, field: "Proxy-Authenticate").count == 1)
    }

    @Test func lookupsIgnoreCase() throws {
        let challenge = try #require(try Challenge.parse("dIgEsT Nonce=\"n\"").first)
        #expect(challenge.isScheme("Digest"))
        #expect(challenge.parameter("NONCE") == "n")
    }
}
