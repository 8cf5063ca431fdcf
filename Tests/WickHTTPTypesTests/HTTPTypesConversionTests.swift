// Wick's HTTPRequest/HTTPResponse/HTTPHeaders and swift-http-types': round trips and refusals.
import FoundationEssentials
import HTTPTypes
import Testing
import Wick
import WickHTTPTypes

@Suite struct HTTPTypesConversionTests {
    @Test func fieldsKeepTheirOrderCaseAndDuplicates() throws {
        // `add`, not a literal: a literal replaces a repeated name, `add` keeps both.
        var headers = HTTPHeaders()
        headers.add(name: "X-Trace", value: "a")
        headers.add(name: "accept", value: "*/*")
        headers.add(name: "X-Trace", value: "b")
        let fields = try HTTPFields(headers)
        #expect(fields.map(\.name.rawName) == ["X-Trace", "accept", "X-Trace"])
        #expect(fields[values: HTTPField.Name("x-trace")!] == ["a", "b"])
        let back = HTTPHeaders(fields)
        #expect(back.map(\.name) == ["X-Trace", "accept", "X-Trace"])
        #expect(back.map(\.value) == ["a", "*/*", "b"])
    }

    @Test func aFieldNameThatIsNotATokenIsRefusedByName() {
        let headers: HTTPHeaders = [HTTPHeader(name: "Bad Name", value: "x")]
        #expect {
            _ = try HTTPFields(headers)
        } throws: { error in
            guard case WickError.conversionFailed(.invalidFieldName("Bad Name")) = error else { return false }
            return true
        }
    }

    @Test func aRequestRoundTripsItsMethodURLAndFields() throws {
        let url = try #require(URL(string: "https://example.com:8443/a%20b/c?x=1&y=%2F"))
        let wick = Wick.HTTPRequest(
            method: .patch, url: url, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        let converted = try HTTPTypes.HTTPRequest(wick)
        #expect(converted.method == .patch)
        #expect(converted.scheme == "https")
        #expect(converted.authority == "example.com:8443")
        #expect(converted.path == "/a%20b/c?x=1&y=%2F")
        #expect(converted.headerFields[.contentType] == "application/json")

        let back = try Wick.HTTPRequest(converted, body: wick.body)
        #expect(back.method == wick.method)
        #expect(back.url == wick.url)
        #expect(back.headers == wick.headers)
        #expect(back.body == wick.body)
    }

    @Test func anIPv6HostIsBracketedAndAnEmptyPathIsSlash() throws {
        let url = try #require(URL(string: "http://[::1]:8080"))
        let converted = try HTTPTypes.HTTPRequest(Wick.HTTPRequest(method: .get, url: url, headers: [:], body: nil))
        #expect(converted.authority == "[::1]:8080")
        #expect(converted.path == "/")
        let back = try Wick.HTTPRequest(converted)
        #expect(back.url.absoluteString == "http://[::1]:8080/")
    }

    @Test func aRequestWithoutSchemeOrAuthorityIsRefused() {
        let relative = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
        #expect {
            _ = try Wick.HTTPRequest(relative)
        } throws: { error in
            guard case WickError.conversionFailed(.invalidRequestTarget(nil, nil, "/x")) = error else { return false }
            return true
        }
        let ftp = HTTPTypes.HTTPRequest(method: .get, scheme: "ftp", authority: "example.com", path: "/")
        #expect(throws: WickError.self) { _ = try Wick.HTTPRequest(ftp) }
    }

    @Test func aMethodThatIsNotATokenIsRefused() throws {
        let url = try #require(URL(string: "http://example.com/"))
        let wick = Wick.HTTPRequest(method: HTTPMethod(rawValue: "GET /"), url: url, headers: [:], body: nil)
        #expect {
            _ = try HTTPTypes.HTTPRequest(wick)
        } throws: { error in
            guard case WickError.conversionFailed(.invalidMethod("GET /")) = error else { return false }
            return true
        }
    }

    @Test func aResponseRoundTripsItsStatusAndFields() throws {
        let url = try #require(URL(string: "http://example.com/x"))
        var headers: HTTPHeaders = ["Server": "teapot"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        let wick = Wick.HTTPResponse(
            status: HTTPStatus(rawValue: 418), headers: headers, version: .http1_1, trailers: ["Checksum": "abc"], url: url)
        let converted = try HTTPTypes.HTTPResponse(wick)
        #expect(converted.status.code == 418)
        #expect(converted.headerFields[values: .setCookie] == ["a=1", "b=2"])

        let back = Wick.HTTPResponse(converted, trailers: try HTTPFields(try #require(wick.trailers)), url: url)
        #expect(back.status == wick.status)
        #expect(back.headers == wick.headers)
        #expect(back.trailers == wick.trailers)
        #expect(back.version == .http1_1)
        #expect(back.url == url)
    }

    @Test func aStatusPastThreeDigitsIsRefused() {
        let wick = Wick.HTTPResponse(status: HTTPStatus(rawValue: 1000), headers: [:], version: .http1_1)
        #expect {
            _ = try HTTPTypes.HTTPResponse(wick)
        } throws: { error in
            guard case WickError.conversionFailed(.invalidStatus(1000)) = error else { return false }
            return true
        }
    }
}
