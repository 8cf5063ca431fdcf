// A multipart/form-data body (RFC 7578) built from data, files and streams, as Alamofire's MultipartFormData.
public import FoundationEssentials
import WickReactor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A `multipart/form-data` body (RFC 7578): parts appended from `Data`, files and streams, then
/// encoded in memory (`encode()`), to a file (`writeEncodedData(to:)`), or read in pieces
/// (`makeReader()`), which is how an upload sends it with flat memory whatever the files weigh.
///
/// ```
/// let form = MultipartFormData()
/// form.append(Data("wick".utf8), withName: "user")
/// form.append(URL(fileURLWithPath: "/tmp/photo.jpg"), withName: "photo")
/// let body = try form.encode()  // send with Content-Type: form.contentType
/// ```
///
/// Each part is `Content-Disposition: form-data; name="..."` with `filename="..."` when given
/// (`"`, CR and LF escaped as `%22`, `%0D`, `%0A`), then `Content-Type` when given. As in
/// Alamofire, `append` never throws: the first problem is recorded, that part is left out, and
/// every encoding call throws it as `WickError.multipartEncodingFailed`. A form with no parts
/// encodes as an empty body, as Alamofire's does. Files are not read when appended (only their
/// size is taken), so `encodedLength` costs nothing; a file must keep that size until encoded.
///
/// Appending and encoding may happen from any thread; each encoding takes a snapshot of the
/// parts, and files and streams are opened anew by each one, so a form can be sent again.
public final class MultipartFormData: Sendable {
    /// The body size (10 MB, as Alamofire) under which encoding in memory with `encode()` is the
    /// better choice; above it, send through `makeReader()` or `writeEncodedData(to:)`.
    public static let encodingMemoryThreshold: UInt64 = 10_000_000

    /// The size of the pieces `encode()` and `writeEncodedData(to:)` read and write at a time
    /// (64 KiB), so a file part is never held whole in memory by the latter.
    static let chunkSize = 64 * 1024

    /// The boundary between parts: `wick.boundary.` and 32 random hex digits unless given.
    public let boundary: String
    /// The file manager that checks file parts (existence, kind, readability, size) when they are appended.
    public let fileManager: FileManager
    /// The parts appended so far, and the first problem an `append` met.
    private let storage = Locked(Storage())

    /// The `Content-Type` value the encoded body needs: `multipart/form-data; boundary=...`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The length in bytes of the parts' contents, without delimiters and part headers:
    /// Alamofire's `contentLength` (the sum of its body parts' `bodyContentLength`). The body
    /// sent is longer: see `encodedLength`. Parts that failed to append are not counted.
    public var contentLength: UInt64 {
        storage.withLock { $0.parts }.reduce(0) { $0 + $1.content.length }
    }

    /// The exact length in bytes of the encoded body (delimiters, part headers and contents),
    /// what is sent as `Content-Length`; computed without reading any file: file sizes were
    /// taken when they were appended. Parts that failed to append are not counted.
    public var encodedLength: UInt64 {
        let parts = storage.withLock { $0.parts }
        return Self.segments(of: parts, boundary: boundary).reduce(0) { $0 + $1.length }
    }

    /// An empty form whose file parts are checked with `fileManager`, separated by `boundary`
    /// (a random one if nil). A boundary you give must be 1 to 70 characters from
    /// `A-Z a-z 0-9 ' + _ - .`; otherwise every encoding call throws
    /// `WickError.multipartEncodingFailed(reason: .boundaryInvalid(boundary:))`.
    public init(fileManager: FileManager = .default, boundary: String? = nil) {
        self.fileManager = fileManager
        self.boundary = boundary ?? MultipartBoundary.random()
        if !MultipartBoundary.isValid(self.boundary) {
            storage.withLock { $0.record(.boundaryInvalid(boundary: self.boundary)) }
        }
    }

    /// Appends `data` as a part named `name`, with a `filename` and a `Content-Type` when given.
    ///
    /// Never throws; a `mimeType` with a control character is recorded as
    /// `.bodyPartMimeTypeInvalid` and thrown by the encoding calls.
    public func append(_ data: Data, withName name: String, fileName: String? = nil, mimeType: String? = nil) {
        append(.data(data), withName: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends the file at `fileURL` as a part named `name`, with its last path component as the
    /// `filename` and a `Content-Type` from its extension (`mimeType(forPathExtension:)`:
    /// `application/octet-stream` for an extension it does not know, or none; Alamofire
    /// refuses a file without an extension).
    ///
    /// Never throws; problems are recorded (see `append(_:withName:fileName:mimeType:)` for
    /// files) and thrown by the encoding calls, as is `.bodyPartFilenameInvalid` when the last
    /// path component is empty, `/`, `.` or `..`.
    public func append(_ fileURL: URL, withName name: String) {
        let fileName = fileURL.lastPathComponent
        guard !["", "/", ".", ".."].contains(fileName) else {
            record(.bodyPartFilenameInvalid(in: fileURL))
            return
        }
        let mimeType = Self.mimeType(forPathExtension: fileURL.pathExtension)
        append(fileURL, withName: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends the file at `fileURL` as a part named `name` with the given `filename` and
    /// `Content-Type`. The file is not read now: its size is taken, and its bytes are read when
    /// the form is encoded.
    ///
    /// Never throws; the first problem is recorded, the part left out, and the encoding calls
    /// throw it: `.bodyPartURLInvalid` (not a `file:` URL), `.bodyPartFileNotReachable`,
    /// `.bodyPartFileIsDirectory`, `.bodyPartFileNotReadable`, `.bodyPartFileSizeNotAvailable`
    /// (not a regular file, so no size is known in advance),
    /// `.bodyPartFileSizeQueryFailedWithError`, `.bodyPartMimeTypeInvalid`.
    public func append(_ fileURL: URL, withName name: String, fileName: String, mimeType: String) {
        guard fileURL.isFileURL else {
            record(.bodyPartURLInvalid(url: fileURL))
            return
        }
        // Symbolic links are followed here, because attributesOfItem describes the link itself.
        let path = fileURL.resolvingSymlinksInPath().path(percentEncoded: false)
        var isDirectory = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            record(.bodyPartFileNotReachable(at: fileURL))
            return
        }
        guard !isDirectory else {
            record(.bodyPartFileIsDirectory(at: fileURL))
            return
        }
        guard fileManager.isReadableFile(atPath: path) else {
            record(.bodyPartFileNotReadable(at: fileURL))
            return
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try fileManager.attributesOfItem(atPath: path)
        } catch {
            record(.bodyPartFileSizeQueryFailedWithError(forURL: fileURL, error: error))
            return
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular, let size = Self.size(in: attributes) else {
            record(.bodyPartFileSizeNotAvailable(at: fileURL))
            return
        }
        append(.file(path: path, size: size), withName: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends a part named `name` whose `source.length` bytes come from `source`'s stream,
    /// opened anew for each encoding, with a `filename` and a `Content-Type` when given.
    ///
    /// Never throws; a `mimeType` with a control character is recorded as
    /// `.bodyPartMimeTypeInvalid` and thrown by the encoding calls.
    public func append(
        _ source: MultipartStreamSource, withName name: String, fileName: String? = nil, mimeType: String? = nil
    ) {
        append(.stream(name: name, source), withName: name, fileName: fileName, mimeType: mimeType)
    }

    /// The whole encoded body in memory. Meant for bodies under `encodingMemoryThreshold`: it
    /// holds every byte at once (files included), so larger ones should go through
    /// `makeReader()` or `writeEncodedData(to:)`.
    ///
    /// - Throws: `WickError.multipartEncodingFailed` with the first problem an `append` met,
    ///   `.boundaryInvalid`, or `.inputStreamReadFailed` when a file or stream cannot be read.
    public func encode() throws(WickError) -> Data {
        let reader = try makeReader()
        var data = Data()
        data.reserveCapacity(Int(reader.contentLength))
        while true {
            let chunk = try reader.read(upTo: Self.chunkSize)
            if chunk.isEmpty { return data }
            // Through the buffer so that the copy is one memcpy, also in debug builds.
            // SAFETY: the buffer is the local chunk's storage, valid inside the closure; Data.append
            // copies its count bytes before returning.
            chunk.withUnsafeBufferPointer { data.append($0) }
        }
    }

    /// Writes the encoded body to a new file at `fileURL`, 64 KiB at a time, so no file part is
    /// ever held whole in memory. On any failure the partial file is removed.
    ///
    /// - Throws: `WickError.multipartEncodingFailed` with the first problem an `append` met,
    ///   `.boundaryInvalid`, `.outputStreamURLInvalid` (not a `file:` URL),
    ///   `.outputStreamFileAlreadyExists` (an existing file is never replaced),
    ///   `.outputStreamCreationFailed`, `.inputStreamReadFailed` or `.outputStreamWriteFailed`.
    public func writeEncodedData(to fileURL: URL) throws(WickError) {
        let reader = try makeReader()
        guard fileURL.isFileURL else { throw .multipartEncodingFailed(reason: .outputStreamURLInvalid(url: fileURL)) }
        let path = fileURL.path(percentEncoded: false)
        let fd: Int32
        do {
            fd = try FileIO.system.open(path, .creatingExclusively(permissions: 0o644))
        } catch {
            if error.errno == EEXIST {
                throw .multipartEncodingFailed(reason: .outputStreamFileAlreadyExists(at: fileURL))
            }
            throw .multipartEncodingFailed(reason: .outputStreamCreationFailed(for: fileURL, error: MultipartIOError(error)))
        }
        do {
            try Self.write(reader, to: fd, path: path)
        } catch {
            // Cleanup after the error being thrown; a file that cannot be removed changes nothing.
            try? FileIO.system.unlink(path)
            throw error
        }
    }

    /// A reader that produces the encoded body in pieces, reading each file and stream only as
    /// far as the pieces asked for so far. Each reader is independent: it has its own position
    /// and opens its own files and streams.
    ///
    /// - Throws: `WickError.multipartEncodingFailed` with the first problem an `append` met, or
    ///   `.boundaryInvalid`. Read failures come later, from `MultipartBodyReader.read(upTo:)`.
    public func makeReader() throws(WickError) -> MultipartBodyReader {
        let (parts, failure) = storage.withLock { ($0.parts, $0.failure) }
        if let failure { throw .multipartEncodingFailed(reason: failure) }
        let segments = Self.segments(of: parts, boundary: boundary)
        return MultipartBodyReader(segments: segments, contentLength: segments.reduce(0) { $0 + $1.length })
    }
}

extension MultipartFormData {
    /// The parts, and the first problem an `append` (or `init`) met.
    private struct Storage: Sendable {
        var parts: [MultipartBodyPart] = []
        var failure: MultipartEncodingFailureReason?

        /// Keeps `reason` unless a problem was already recorded.
        mutating func record(_ reason: MultipartEncodingFailureReason) {
            if failure == nil { failure = reason }
        }
    }

    /// Records `reason` as the form's problem unless one was recorded before.
    private func record(_ reason: MultipartEncodingFailureReason) {
        storage.withLock { $0.record(reason) }
    }

    /// Appends a part with `content`, once `mimeType` is known to be a valid field value.
    private func append(
        _ content: MultipartBodyPart.Content, withName name: String, fileName: String?, mimeType: String?
    ) {
        if let mimeType, !MultipartBodyPart.isValidMIMEType(mimeType) {
            record(.bodyPartMimeTypeInvalid(mimeType: mimeType))
            return
        }
        let part = MultipartBodyPart(name: name, fileName: fileName, mimeType: mimeType, content: content)
        storage.withLock { $0.parts.append(part) }
    }

    /// The file size in `attributes`, whichever integer type the file manager used.
    private static func size(in attributes: [FileAttributeKey: Any]) -> UInt64? {
        switch attributes[.size] {
        case let size as UInt: UInt64(size)
        case let size as UInt64: size
        case let size as Int where size >= 0: UInt64(size)
        case let size as Int64 where size >= 0: UInt64(size)
        default: nil
        }
    }

    /// The encoded body as stretches: for each part its opening delimiter and head, then its
    /// content; the close delimiter after the last. No parts, no bytes.
    static func segments(of parts: [MultipartBodyPart], boundary: String) -> [MultipartBodyReader.Segment] {
        guard !parts.isEmpty else { return [] }
        var segments: [MultipartBodyReader.Segment] = []
        segments.reserveCapacity(parts.count * 2 + 1)
        for (position, part) in parts.enumerated() {
            let delimiter =
                position == 0
                ? MultipartBoundary.initialDelimiter(boundary) : MultipartBoundary.encapsulatedDelimiter(boundary)
            segments.append(.bytes(delimiter + part.head))
            segments.append(.content(part.content))
        }
        segments.append(.bytes(MultipartBoundary.closeDelimiter(boundary)))
        return segments
    }

    /// Copies everything `reader` produces to `fd` (named `path` in errors) in `chunkSize`
    /// pieces, then closes `fd`, also when a read or write fails.
    static func write(_ reader: MultipartBodyReader, to fd: Int32, path: String) throws(WickError) {
        do throws(WickError) {
            while true {
                let chunk = try reader.read(upTo: chunkSize)
                if chunk.isEmpty { break }
                do {
                    try FileIO.system.writeAll(fd, chunk, path: path)
                } catch {
                    throw .multipartEncodingFailed(reason: .outputStreamWriteFailed(error: MultipartIOError(error)))
                }
            }
        } catch {
            try? FileIO.system.close(fd, path: path)
            throw error
        }
        do {
            // A failed close of a file we wrote may mean lost data, so it is an error.
            try FileIO.system.close(fd, path: path)
        } catch {
            throw .multipartEncodingFailed(reason: .outputStreamWriteFailed(error: MultipartIOError(error)))
        }
    }
}
