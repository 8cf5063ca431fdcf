// Why a download failed with its file or its resume data (WickError.downloadFailed).
/// Why a download failed (`WickError.downloadFailed`): its file could not be made, written or
/// moved, or its resume data could not be used. `path` is the file concerned; `errno` the
/// system's error number where one was reported.
public enum DownloadFailureReason: Error, Sendable, Equatable, CustomStringConvertible {
    /// The temporary file (or its directory) could not be created or opened.
    case cannotCreateFile(path: String, errno: Int32)
    /// Writing the body to the temporary file failed (a full disk, an I/O error).
    case cannotWriteFile(path: String, errno: Int32)
    /// The finished file could not be moved to its destination (or its directory created, or
    /// the previous file removed); `reason` is the file system's message.
    case cannotMoveFile(from: String, to: String, reason: String)
    /// The destination already exists and the destination's options do not include
    /// `.removePreviousFile`. The downloaded file is removed.
    case destinationExists(path: String)
    /// The resume data given to `Session.download(resumingWith:)` is not Wick's resume data
    /// (`DownloadResumeData`): `reason` says what is wrong with it. Nothing is sent.
    case invalidResumeData(reason: String)
    /// A resumed download got `206 Partial Content` for another range than the one asked for
    /// (`Content-Range` missing, or starting at `received` instead of `requested`): the
    /// server is inconsistent, so the partial file is kept and the request fails.
    case unexpectedContentRange(requested: Int64, received: String?)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .cannotCreateFile(let path, let errno): "cannot create \(path) (errno \(errno))"
        case .cannotWriteFile(let path, let errno): "cannot write \(path) (errno \(errno))"
        case .cannotMoveFile(let from, let to, let reason): "cannot move \(from) to \(to): \(reason)"
        case .destinationExists(let path): "\(path) exists and the options do not include .removePreviousFile"
        case .invalidResumeData(let reason): "the resume data is not usable: \(reason)"
        case .unexpectedContentRange(let requested, let received):
            "asked for bytes from \(requested), the server sent Content-Range \(received ?? "(none)")"
        }
    }
}
