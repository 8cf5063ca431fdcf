// The byte classes behind request validation, checked against RFC 9110's lists for all 256 bytes.
import Testing
@testable import WickHTTP1

@Suite struct HeaderValidationTests {
    static let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    @Test func tokenBytesAreExactlyRFC9110Tchars() {
        for byte in UInt8.min...UInt8.max {
            #expect(HeaderValidation.isTokenByte(byte) == Self.tchars.contains(byte), "byte \(byte)")
        }
    }

    @Test func fieldValueBytesAreVisibleSpaceTabAndObsText() {
        for byte in UInt8.min...UInt8.max {
            let allowed = byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
            #expect(HeaderValidation.isFieldValueByte(byte) == allowed, "byte \(byte)")
        }
    }

    @Test func targetBytesAreVisibleASCIIWithoutFragment() {
        for byte in UInt8.min...UInt8.max {
            let allowed = (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "#")
            #expect(HeaderValidation.isTargetByte(byte) == allowed, "byte \(byte)")
        }
    }

    @Test(arguments: [
        ("Host", HeaderValidation.FieldKind.host), ("HOST", .host), ("content-length", .contentLength),
        ("Transfer-Encoding", .transferEncoding), ("trailer", .trailer), ("Hostx", .other), ("Content-Type", .other),
        ("", .other),
    ])
    func fieldKinds(name: String, kind: HeaderValidation.FieldKind) {
        #expect(HeaderValidation.kind(of: name) == kind)
    }
}
