// Whole small files through the FileIO layer: read one at once, replace one atomically.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension FileIO {
    /// Replaces the file at `path` with `bytes`: a new file (mode `permissions`, created
    /// exclusively under a random name beside it) is written, closed and renamed over `path`, so
    /// a reader, or a crash, sees the old file or the new one, never half of one. On failure the
    /// new file is removed and the old one is untouched.
    /// - Throws: `FileIOError` naming the call that failed (`open` for a missing or read-only
    ///   directory, `write` for a full disk, `rename`).
    package func replaceAtomically(_ path: String, with bytes: [UInt8], permissions: UInt32) throws(FileIOError) {
        let temporary = path + ".wick-\(UInt64.random(in: 0...UInt64.max))"
        do throws(FileIOError) {
            let fd = try open(temporary, .creatingExclusively(permissions: permissions))
            do throws(FileIOError) {
                try writeAll(fd, bytes, path: temporary)
                try close(fd, path: temporary)
            } catch {
                try? close(fd, path: temporary)
                throw error
            }
            try rename(temporary, to: path)
        } catch {
            try? unlink(temporary)
            throw error
        }
    }

    /// The bytes of the file at `path`, or nil when it does not exist (`ENOENT`).
    /// - Throws: `FileIOError` for any other failure of `open`, `fstat` or `read`, and `EFBIG`
    ///   (as `read`) when the file holds more than `limit` bytes.
    package func contentsOfFile(_ path: String, limit: Int) throws(FileIOError) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try open(path, .reading)
        } catch where error.errno == ENOENT {
            return nil
        }
        defer { try? close(fd, path: path) }
        let size = try status(of: fd, path: path).size
        guard size <= Int64(limit) else { throw FileIOError(call: "read", path: path, errno: EFBIG) }
        var bytes = [UInt8](repeating: 0, count: Int(size) + 1)
        var count = 0
        while count < bytes.count {
            // Array's withUnsafeMutableBytes rethrows untyped errors: the typed one travels as a Result.
            // SAFETY: the rebased slice lies inside `bytes`' own storage (count < bytes.count), valid
            // inside this closure; read writes at most its length and keeps no pointer.
            let outcome = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(FileIOError) in
                    try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]), path: path)
                }
            }
            let bytesRead = try outcome.get()
            if bytesRead == 0 { break }
            count += bytesRead
            // The file grew after fstat: refuse rather than read without bound.
            guard count <= limit else { throw FileIOError(call: "read", path: path, errno: EFBIG) }
        }
        return Array(bytes[..<count])
    }
}
