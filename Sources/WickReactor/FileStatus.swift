// What fstat or stat says about a file, reduced to what Wick uses.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a file is, as `fstat` or `stat` tells it.
package struct FileStatus: Hashable, Sendable {
    /// The size in bytes.
    package let size: Int64
    /// Whether it is a regular file (not a directory, device, socket or pipe).
    package let isRegularFile: Bool
}

extension FileStatus {
    /// The fields Wick uses of a `stat` record.
    init(_ information: stat) {
        size = Int64(information.st_size)
        isRegularFile = (information.st_mode & S_IFMT) == S_IFREG
    }
}
