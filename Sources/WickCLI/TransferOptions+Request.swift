// The request a command line describes: URL, method, header fields in curl's order, body.
public import FoundationEssentials
public import Wick

extension TransferOptions {
    /// The User-Agent sent unless `-A` or `-H` says otherwise.
    public static let defaultUserAgent = "wick/0.1"

    /// The URL to fetch for the argument `url`: `http://` added when it names no scheme, and
    /// with `-G` the data appended to its query.
    /// - Throws: `CommandFailure` (1) for a scheme other than http or https.
    public func effectiveURL(_ url: String) throws(CommandFailure) -> String {
        var url = url
        if let schemeEnd = url.firstRange(of: "://") {
            let scheme = url[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw CommandFailure(.unsupportedProtocol, "Protocol \"\(scheme)\" not supported or disabled in libcurl")
            }
        } else {
            url = "http://" + url
        }
        if dataInQuery, let data {
            url += (url.contains("?") ? "&" : "?") + String(decoding: data, as: UTF8.self)
        }
        return url
    }

    /// The method: `-X`, else HEAD for `-I`, GET for `-G`, POST with a body, GET otherwise.
    public var effectiveMethod: HTTPMethod {
        if let method { return HTTPMethod(rawValue: method) }
        if headOnly { return .head }
        return !dataInQuery && (data != nil || !form.isEmpty) ? .post : .get
    }

    /// The body: the data (unless `-G`), or the form encoded with `boundary` (random if nil).
    /// - Returns: the bytes and the Content-Type they need, or nil for no body.
    /// - Throws: `CommandFailure` (26) when a form's file cannot be read.
    public func body(input: some ArgumentInput, boundary: String? = nil) throws(CommandFailure) -> (bytes: Data, contentType: String)? {
        if !form.isEmpty {
            let multipart = MultipartFormData(boundary: boundary)
            for field in form {
                switch field.content {
                case .text(let text):
                    multipart.append(Data(text.utf8), withName: field.name, fileName: field.fileName, mimeType: field.contentType)
                case .fileText(let path):
                    guard let bytes = input.contents(ofFile: path) else {
                        throw CommandFailure(.readError, "Failed to open/read local data from file/application")
                    }
                    multipart.append(Data(bytes), withName: field.name, fileName: field.fileName, mimeType: field.contentType)
                case .file(let path):
                    let file = URL(fileURLWithPath: path)
                    if field.fileName == nil && field.contentType == nil {
                        multipart.append(file, withName: field.name)
                    } else {
                        multipart.append(
                            file, withName: field.name, fileName: field.fileName ?? file.lastPathComponent,
                            mimeType: field.contentType ?? "application/octet-stream")
                    }
                }
            }
            do {
                return (try multipart.encode(), multipart.contentType)
            } catch {
                throw CommandFailure(.readError, "Failed to open/read local data from file/application: \(error)")
            }
        }
        guard let data, !dataInQuery else { return nil }
        return (Data(data), isJSON ? "application/json" : "application/x-www-form-urlencoded")
    }

    /// The `-b` arguments sent as they are (those with a `=`; the others name cookie files).
    var literalCookies: [String] { cookies.filter { $0.contains("=") } }

    /// `-u`'s user and password (empty when no `:` follows the user); nil without `-u`.
    public var credentials: (user: String, password: String)? {
        guard let user else { return nil }
        guard let colon = user.firstIndex(of: ":") else { return (user, "") }
        return (String(user[..<colon]), String(user[user.index(after: colon)...]))
    }

    /// The header fields in curl's order: Authorization (Basic), User-Agent, Accept, Referer,
    /// Accept-Encoding, `--json`'s two, the `-H` fields, then the body's Content-Type. A `-H`
    /// field replaces the one `wick` would add under its name; `Name:` removes it.
    /// - Parameter bodyContentType: the body's type, if it has one.
    public func headerFields(bodyContentType: String?) -> HTTPHeaders {
        var added: [(name: String, value: String)] = []
        if let (name, password) = credentials, !usesDigest {
            added.append(("Authorization", "Basic " + Data("\(name):\(password)".utf8).base64EncodedString()))
        }
        added.append(("User-Agent", userAgent ?? Self.defaultUserAgent))
        added.append(("Accept", "*/*"))
        if let referer { added.append(("Referer", referer)) }
        if !literalCookies.isEmpty { added.append(("Cookie", literalCookies.joined(separator: "; "))) }
        if compressed { added.append((HTTPHeader.defaultAcceptEncoding.name, HTTPHeader.defaultAcceptEncoding.value)) }
        if isJSON {
            added.removeAll { $0.name == "Accept" }
            added += [("Content-Type", "application/json"), ("Accept", "application/json")]
        }
        let trailing: [(name: String, value: String)] = isJSON ? [] : bodyContentType.map { [("Content-Type", $0)] } ?? []
        var custom: [(name: String, value: String)] = []
        var replaced: Set<String> = []
        for header in headers {
            switch header {
            case .set(let name, let value):
                custom.append((name, value))
                replaced.insert(name.lowercased())
            case .remove(let name): replaced.insert(name.lowercased())
            }
        }
        var fields = HTTPHeaders()
        for field in added where !replaced.contains(field.name.lowercased()) { fields.add(name: field.name, value: field.value) }
        for field in custom { fields.add(name: field.name, value: field.value) }
        for field in trailing where !replaced.contains(field.name.lowercased()) { fields.add(name: field.name, value: field.value) }
        return fields
    }
}
