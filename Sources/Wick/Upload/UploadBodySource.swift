// An upload's body as the transport pulls it: from memory, a file, or an async stream.
import Dispatch
import FoundationEssentials
import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

/// Why an upload's file could not be read (`SessionTaskFailure.requestBodyFailed`).
enum UploadFileError: Error, CustomStringConvertible {
    /// `open(2)` or `fstat(2)` failed with `errno`.
    case cannotOpen(path: String, errno: Int32)
    /// The path is a directory or another non-regular file.
    case notARegularFile(path: String)
    /// `pread(2)` failed with `errno`.
    case readFailed(path: String, errno: Int32)
    /// The file became shorter than its size when the upload started.
    case truncated(path: String, expected: Int, read: Int)
    /// The stream was consumed by an earlier send, so the body cannot be sent again.
    case streamAlreadyConsumed

    var description: String {
        switch self {
        case .cannotOpen(let path, let code): "cannot open \(path): \(String(cString: strerror(code)))"
        case .notARegularFile(let path): "\(path) is not a regular file"
        case .readFailed(let path, let code): "reading \(path) failed: \(String(cString: strerror(code)))"
        case .truncated(let path, let expected, let read):
            "\(path) shrank during the upload: \(read) of \(expected) bytes"
        case .streamAlreadyConsumed: "the upload stream was already consumed by an earlier send"
        }
    }
}

/// Pulls an upload's body for the transport. Reads happen on a serial queue of their own (file
/// reads block; a stream's chunks are awaited), never on an event loop. `progress` hears the
/// bytes read so far after each piece (it starts again from 0 after a rewind).
///
/// `@unchecked Sendable`: `offset`, `pending` and `isExhaustedStream` are touched only on
/// `queue`; the rest is immutable.
final class UploadBodySource: TransportBodySource, @unchecked Sendable {
    private enum Reader {
        case memory(Data)
        case file(descriptor: Int32, path: String)
        case stream(UploadStream)
        case multipart(MultipartFormData, MultipartReaderBox)
    }

    let length: Int?
    private let reader: Reader
    private let queue = DispatchQueue(label: "wick.upload-body")
    private let progress: @Sendable (Int64) -> Void
    private var offset = 0
    /// The rest of a stream chunk larger than a piece.
    private var pending = Data()
    /// Bytes of the stream handed over so far; a stream cannot start again once this is not 0.
    private var streamed = 0

    private init(reader: Reader, length: Int?, progress: @escaping @Sendable (Int64) -> Void) {
        self.reader = reader
        self.length = length
        self.progress = progress
    }

    /// Bytes in memory.
    static func memory(_ data: Data, progress: @escaping @Sendable (Int64) -> Void) -> UploadBodySource {
        UploadBodySource(reader: .memory(data), length: data.count, progress: progress)
    }

    /// A regular file, opened now; its length is its size now.
    /// - Throws: `UploadFileError.cannotOpen`, `.notARegularFile`.
    static func file(_ url: URL, progress: @escaping @Sendable (Int64) -> Void) throws(UploadFileError)
        -> UploadBodySource
    {
        let path = url.path(percentEncoded: false)
        let descriptor: Int32
        let status: FileStatus
        do {
            descriptor = try FileIO.system.open(path, .reading)
        } catch {
            throw .cannotOpen(path: path, errno: error.errno)
        }
        do {
            status = try FileIO.system.status(of: descriptor, path: path)
        } catch {
            // Only read: a failed close loses nothing (here and below).
            try? FileIO.system.close(descriptor, path: path)
            throw .cannotOpen(path: path, errno: error.errno)
        }
        guard status.isRegularFile else {
            try? FileIO.system.close(descriptor, path: path)
            throw .notARegularFile(path: path)
        }
        return UploadBodySource(
            reader: .file(descriptor: descriptor, path: path), length: Int(status.size), progress: progress)
    }

    /// A multipart form, read through a fresh `MultipartBodyReader` (and again after a rewind).
    /// - Throws: the form's first problem (`WickError.multipartEncodingFailed`).
    static func multipart(_ form: MultipartFormData, progress: @escaping @Sendable (Int64) -> Void) throws(WickError)
        -> UploadBodySource
    {
        let reader = try form.makeReader()
        return UploadBodySource(
            reader: .multipart(form, MultipartReaderBox(reader)), length: Int(reader.contentLength), progress: progress)
    }

    /// The chunks of a stream; length unknown (chunked).
    static func stream(_ stream: UploadStream, progress: @escaping @Sendable (Int64) -> Void) -> UploadBodySource {
        UploadBodySource(reader: .stream(stream), length: nil, progress: progress)
    }

    deinit {
        if case .file(let descriptor, let path) = reader { try? FileIO.system.close(descriptor, path: path) }
    }

    func read(maximum: Int, deliver: @escaping @Sendable (Result<[UInt8], any Error>) -> Void) {
        queue.async { [self] in
            switch reader {
            case .memory(let data):
                let end = min(data.count, offset + maximum)
                let piece = [UInt8](data[data.startIndex + offset..<data.startIndex + end])
                offset = end
                if !piece.isEmpty { progress(Int64(offset)) }
                deliver(.success(piece))
            case .file(let descriptor, let path):
                let result = readFile(descriptor, path: path, maximum: maximum)
                if case .success(let piece) = result, !piece.isEmpty { progress(Int64(offset)) }
                deliver(result)
            case .stream(let stream):
                readStream(stream, maximum: maximum, deliver: deliver)
            case .multipart(_, let box):
                do {
                    let piece = try box.reader.read(upTo: maximum)
                    offset += piece.count
                    if !piece.isEmpty { progress(Int64(offset)) }
                    deliver(.success(piece))
                } catch {
                    deliver(.failure(error))
                }
            }
        }
    }

    func rewind() -> Bool {
        queue.sync {
            switch reader {
            case .stream: return streamed == 0
            case .multipart(let form, let box):
                guard let fresh = try? form.makeReader() else { return false }
                box.reader = fresh
            case .memory, .file: break
            }
            offset = 0
            return true
        }
    }

    /// The next piece of the file (on `queue`).
    private func readFile(_ descriptor: Int32, path: String, maximum: Int) -> Result<[UInt8], any Error> {
        let expected = length ?? 0
        let count = min(maximum, expected - offset)
        guard count > 0 else { return .success([]) }
        var piece = [UInt8](repeating: 0, count: count)
        // SAFETY: `piece` is a local array of `count` zeroed bytes, so its buffer is ours alone and
        // fully initialised; pread writes at most buffer.count bytes into it during the call and keeps
        // no pointer.
        let outcome = piece.withUnsafeMutableBytes { buffer in
            Result { () throws(FileIOError) in
                try FileIO.system.read(descriptor, into: buffer, at: Int64(offset), path: path)
            }
        }
        let read: Int
        switch outcome {
        case .success(let count): read = count
        case .failure(let error): return .failure(UploadFileError.readFailed(path: path, errno: error.errno))
        }
        guard read > 0 else { return .failure(UploadFileError.truncated(path: path, expected: expected, read: offset)) }
        piece.removeLast(count - read)
        offset += read
        return .success(piece)
    }

    /// The next piece of the stream (on `queue`, the chunk awaited in a task).
    private func readStream(
        _ stream: UploadStream, maximum: Int, deliver: @escaping @Sendable (Result<[UInt8], any Error>) -> Void
    ) {
        if !pending.isEmpty {
            let piece = [UInt8](pending.prefix(maximum))
            pending = Data(pending.dropFirst(piece.count))
            streamed += piece.count
            progress(Int64(streamed))
            return deliver(.success(piece))
        }
        Task { [self] in
            do {
                let chunk = try await stream.next()
                queue.async { [self] in
                    guard let chunk else { return deliver(.success([])) }
                    if chunk.isEmpty { return readStream(stream, maximum: maximum, deliver: deliver) }
                    pending = chunk
                    readStream(stream, maximum: maximum, deliver: deliver)
                }
            } catch {
                deliver(.failure(error))
            }
        }
    }
}

/// The current reader of a multipart body, replaced by a rewind; used only on the source's queue.
final class MultipartReaderBox: @unchecked Sendable {
    var reader: MultipartBodyReader

    init(_ reader: MultipartBodyReader) {
        self.reader = reader
    }
}
