// Where a finished download goes: Alamofire's suggested destination, for Linux directories.
public import FoundationEssentials

extension DownloadRequest {
    /// The URL of the last request sent, while a `Destination` runs (for
    /// `suggestedDownloadDestination`, which is handed only the response).
    @TaskLocal static var destinationRequestURL: URL?

    /// A destination in `directory` named as the server suggests: the `filename` of the
    /// response's `Content-Disposition`, else the last path component of the URL requested
    /// (after redirects), else `download`. Only the name's last path component is used, so a
    /// hostile `filename="../../x"` stays in `directory`.
    ///
    /// Alamofire takes a `FileManager.SearchPathDirectory` and domain; Linux has no such search
    /// paths, so the directory is given as a URL (for example the user's
    /// `FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Downloads")`).
    /// - Parameter directory: the directory the file goes to.
    /// - Parameter options: how to move there (e.g. `.createIntermediateDirectories`).
    public static func suggestedDownloadDestination(
        for directory: URL, options: Options = []
    ) -> Destination {
        { _, response in
            let name = suggestedFilename(response, requestURL: destinationRequestURL)
            return (directory.appendingPathComponent(name, isDirectory: false), options)
        }
    }

    /// The name `suggestedDownloadDestination` picks.
    static func suggestedFilename(_ response: HTTPResponse, requestURL: URL?) -> String {
        if let disposition = response.headers.value(for: "Content-Disposition"),
            let name = dispositionFilename(disposition).flatMap(safeName)
        {
            return name
        }
        if let last = requestURL?.lastPathComponent, let name = safeName(last) { return name }
        return "download"
    }

    /// The `filename` parameter of a `Content-Disposition` value (RFC 6266), quoted or not;
    /// `filename*` (RFC 8187) is not decoded.
    private static func dispositionFilename(_ value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].filter({ $0 != " " && $0 != "\t" }).lowercased() == "filename" else {
                continue
            }
            var name = pair[1].drop { $0 == " " || $0 == "\t" }
            while name.last == " " || name.last == "\t" { name = name.dropLast() }
            if name.count >= 2, name.first == "\"", name.last == "\"" { name = name.dropFirst().dropLast() }
            return String(name)
        }
        return nil
    }

    /// The last path component of `name`, unless that is empty, `.`, `..` or holds a NUL.
    private static func safeName(_ name: String) -> String? {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        guard !last.isEmpty, last != ".", last != "..", !last.contains("\0") else { return nil }
        return last
    }
}
