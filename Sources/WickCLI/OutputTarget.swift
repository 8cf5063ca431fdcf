// Where one URL's output goes when `-o` or `-O` names it; the n-th of them serves the n-th URL.

/// A file for one URL's output.
public enum OutputTarget: Equatable, Sendable {
    /// `-o PATH` (`-` is standard output).
    case file(String)
    /// `-O`: the last path segment of the URL (with `-J`, Content-Disposition's file name).
    case remoteName
}
