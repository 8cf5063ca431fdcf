// How the FileIO layer opens a path: the modes Wick needs, as open(2) flags.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How `FileIO.open` opens a path. Every mode sets close-on-exec.
package enum FileOpenMode: Hashable, Sendable {
    /// Read only.
    case reading
    /// Write only, creating the file with `permissions` if it is missing, keeping its bytes,
    /// every write going to its end.
    case appending(permissions: UInt32)
    /// Write only, creating the file with `permissions`; `EEXIST` if the path exists.
    case creatingExclusively(permissions: UInt32)

    /// The `open(2)` flags and mode.
    var flags: (flags: Int32, mode: mode_t) {
        switch self {
        case .reading: (O_RDONLY | O_CLOEXEC, 0)
        case .appending(let permissions): (O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode_t(permissions))
        case .creatingExclusively(let permissions):
            (O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        }
    }
}
