// README's "HTTP types (swift-http-types)" example, compiled with the tests. Never run.
import FoundationEssentials
import HTTPTypes
import Wick
import WickHTTPTypes

private func readmeHTTPTypesTour(
    wickRequest: Wick.HTTPRequest, body: Data, httpTypesResponse: HTTPTypes.HTTPResponse, url: URL,
    wickHeaders: HTTPHeaders
) throws {
    let request = try HTTPTypes.HTTPRequest(wickRequest)  // method, scheme, authority, path?query, fields
    let wick = try Wick.HTTPRequest(request, body: body)  // http and https only
    let head = Wick.HTTPResponse(httpTypesResponse, url: url)
    let fields = try HTTPFields(wickHeaders)  // order, spelling and duplicates kept
    _ = (wick, head, fields)
}
