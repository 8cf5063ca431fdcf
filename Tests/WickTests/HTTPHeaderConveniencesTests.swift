// The named header fields: names, values, and Basic credentials encoded as RFC 7617 says.
import Testing
import Wick

struct HTTPHeaderConveniencesTests {
    @Test func namedFieldsHaveTheirNamesAndValues() {
        let pairs: [(HTTPHeader, String, String)] = [
            (.accept("application/json"), "Accept", "application/json"),
            (.acceptCharset("utf-8"), "Accept-Charset", "utf-8"),
            (.acceptLanguage("fr"), "Accept-Language", "fr"),
            (.acceptEncoding("br"), "Accept-Encoding", "br"),
            (.authorization(bearerToken: "t0k"), "Authorization", "Bearer t0k"),
            (.authorization("Custom x"), "Authorization", "Custom x"),
            (.contentDisposition("attachment"), "Content-Disposition", "attachment"),
            (.contentEncoding("gzip"), "Content-Encoding", "gzip"),
            (.contentType("text/plain"), "Content-Type", "text/plain"),
            (.userAgent("me/1"), "User-Agent", "me/1"),
        ]
        for (header, name, value) in pairs {
            #expect(header.name == name)
            #expect(header.value == value)
        }
    }

    @Test func basicCredentialsAreBase64OfUserColonPasswordInUTF8() {
        // RFC 7617 §2's example, and its §2.1 UTF-8 example ("test" / "123£").
        #expect(
            HTTPHeader.authorization(username: "Aladdin", password: "open sesame").value
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(HTTPHeader.authorization(username: "test", password: "123\u{A3}").value == "Basic dGVzdDoxMjPCow==")
    }

    @Test func theDefaultsAreUnchanged() {
        #expect(HTTPHeaders.default.map(\.name) == ["Accept-Language", "User-Agent"])
    }
}
