// Wick's resume data: what a cancelled or failed download needs to continue, as versioned JSON.
import FoundationEssentials

/// What `DownloadRequest.resumeData` holds, encoded as JSON (`Codable`, UTF-8), version 1:
///
/// ```
/// {"version":1, "url":"http://host/file", "method":"GET",
///  "headers":[["Accept","*/*"]], "temporaryFilePath":"/tmp/Wick/Downloads/<uuid>.download",
///  "bytesOnDisk":1048576, "entityTag":"\"5f3-a1\"", "lastModified":"Sat, 21 Nov 2026 ..."}
/// ```
///
/// `url`, `method` and `headers` are the request as created (before adapters, which run again
/// on resume), without `Range` and `If-Range`. `bytesOnDisk` is how much of the body the
/// temporary file held, all written, when the data was made. `entityTag` (a strong one only:
/// RFC 9110 §13.1.5 forbids weak tags in `If-Range`) and `lastModified` are the response's
/// validators; at least one is present, else no resume data is made. Unlike URLSession's, this
/// data names a file that stays on disk until the download is resumed and finishes (or the
/// caller removes it).
struct DownloadResumeData: Codable, Sendable, Equatable {
    /// The format's version; another value is refused.
    static let currentVersion = 1

    var version: Int = Self.currentVersion
    var url: String
    var method: String
    var headers: [[String]]
    var temporaryFilePath: String
    var bytesOnDisk: Int64
    var entityTag: String?
    var lastModified: String?

    /// The JSON bytes.
    func encoded() -> Data {
        do {
            return try JSONEncoder().encode(self)
        } catch {
            preconditionFailure("DownloadResumeData.encoded: strings and integers failed to encode: \(error)")
        }
    }

    /// Decodes and checks resume data.
    /// - Throws: `invalidResumeData` saying what is wrong.
    static func decode(_ data: Data) throws(DownloadFailureReason) -> DownloadResumeData {
        let decoded: DownloadResumeData
        do {
            decoded = try JSONDecoder().decode(DownloadResumeData.self, from: data)
        } catch {
            throw .invalidResumeData(reason: "not Wick resume data (\(error))")
        }
        guard decoded.version == currentVersion else {
            throw .invalidResumeData(reason: "version \(decoded.version); this Wick reads \(currentVersion)")
        }
        guard decoded.bytesOnDisk >= 0 else { throw .invalidResumeData(reason: "negative bytesOnDisk") }
        guard decoded.entityTag != nil || decoded.lastModified != nil else {
            throw .invalidResumeData(reason: "no validator (ETag or Last-Modified)")
        }
        guard decoded.temporaryFilePath.hasPrefix("/") else {
            throw .invalidResumeData(reason: "the temporary file path is not absolute")
        }
        guard decoded.headers.allSatisfy({ $0.count == 2 }) else {
            throw .invalidResumeData(reason: "a header is not a [name, value] pair")
        }
        return decoded
    }

    /// The request to resume, without its range fields.
    /// - Throws: `invalidResumeData` when the URL does not parse.
    func request() throws(DownloadFailureReason) -> HTTPRequest {
        guard let parsed = URL(string: url) else { throw .invalidResumeData(reason: "the URL \(url) does not parse") }
        var fields = HTTPHeaders()
        for pair in headers { fields.add(name: pair[0], value: pair[1]) }
        return HTTPRequest(method: HTTPMethod(rawValue: method), url: parsed, headers: fields, body: nil)
    }

    /// The `If-Range` value: the strong entity tag, else the `Last-Modified` date.
    var ifRange: String? { entityTag ?? lastModified }
}

/// The validators of a response that make resuming safe (`If-Range`).
struct DownloadValidators: Sendable, Equatable {
    /// A strong `ETag` (a weak one, `W/"..."`, is dropped).
    var entityTag: String?
    /// `Last-Modified`.
    var lastModified: String?

    /// The validators in `headers`.
    init(_ headers: HTTPHeaders) {
        entityTag = headers.value(for: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        lastModified = headers.value(for: "Last-Modified")
    }

    init(entityTag: String?, lastModified: String?) {
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// Whether there is a validator to send.
    var isEmpty: Bool { entityTag == nil && lastModified == nil }
}
