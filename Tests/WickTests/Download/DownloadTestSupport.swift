// Helpers for the download tests: scratch directories, the payloads, resume data made by hand.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

/// The bytes nginx serves at `/bytes/1m` and `/bytes/10m`, made once.
enum DownloadPayload {
    static let oneMiB = Data(TestPayload.bytes(count: 1 << 20))
    static let tenMiB = Data(TestPayload.bytes(count: 10 << 20))
}

/// A directory of its own for one test, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wick-download-tests/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension DownloadRequest {
    /// Awaits `response`'s handler.
    func awaitResponse() async -> DownloadResponse<URL?, WickError> {
        await withCheckedContinuation { continuation in
            response { continuation.resume(returning: $0) }
        }
    }
}

/// Resume data in Wick's format, for a partial file made by the test.
func resumeData(
    url: String, temporaryFile: URL, bytesOnDisk: Int64, entityTag: String?, lastModified: String? = nil
) -> Data {
    DownloadResumeData(
        url: url, method: "GET", headers: [], temporaryFilePath: temporaryFile.path, bytesOnDisk: bytesOnDisk,
        entityTag: entityTag, lastModified: lastModified
    ).encoded()
}

/// The decoded resume data.
func decodedResumeData(_ data: Data?) throws -> DownloadResumeData {
    try DownloadResumeData.decode(try #require(data))
}

/// The value of `name` in the request head `bytes` (a fault server's log), if present.
func headerValue(_ name: String, in bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    for line in text.components(separatedBy: "\r\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == name.lowercased() {
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
    }
    return nil
}

/// A `200 OK` head for a body of `length` bytes with an `ETag`.
func okHead(length: Int, entityTag: String = "\"wick-1\"") -> String {
    "HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nETag: \(entityTag)\r\nContent-Type: application/octet-stream\r\n\r\n"
}
