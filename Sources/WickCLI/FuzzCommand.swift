// `wick fuzz`: the fuzz targets' one entry point, Scripts/fuzz, reached from the installed tool
// inside a source checkout. The targets need a build with `-sanitize=fuzzer,address` (coverage
// feedback and ASan) and the checkout's corpus and dictionary, which no installed binary has
// (README, "The wick command", on why this wraps the script instead of fuzzing in-process).
import FoundationEssentials
import Glibc

/// The `fuzz` form of the `wick` command.
public enum FuzzCommand {
    /// The help for `wick fuzz` outside a checkout.
    public static let usage = """
        usage: wick fuzz TARGET SECONDS | --list | --smoke SECONDS | all SECONDS | --build
        Runs Scripts/fuzz (libFuzzer targets built with -sanitize=fuzzer,address) of the Wick source
        checkout that holds the current directory, or of WICK_SOURCE_DIR.

        """
    /// The environment variable that names the checkout when the current directory is outside it.
    public static let sourceDirectoryVariable = "WICK_SOURCE_DIR"
    /// The script, relative to the checkout.
    static let script = "Scripts/fuzz"

    /// The checkout that holds `Scripts/fuzz` and `Fuzz/Package.swift`: `sourceDirectory` (the
    /// variable's value) when set, else the first of `directory` and its parents that holds
    /// both; nil when there is none (or the variable names a directory without them).
    public static func sourceCheckout(from directory: String, sourceDirectory: String?) -> String? {
        if let sourceDirectory { return isCheckout(sourceDirectory) ? sourceDirectory : nil }
        var candidate = directory
        while true {
            if isCheckout(candidate) { return candidate }
            guard candidate != "/", !candidate.isEmpty else { return nil }
            let parent = String(candidate[..<(candidate.lastIndex(of: "/") ?? candidate.startIndex)])
            candidate = parent.isEmpty ? "/" : parent
        }
    }

    /// Replaces this process with the checkout's `Scripts/fuzz` and `arguments` (its exit status
    /// is the command's); returns only when it cannot, after writing why to standard error.
    /// - Returns: 2 when no checkout was found, 126 when the script could not be started.
    public static func run(_ arguments: [String]) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        guard
            let checkout = sourceCheckout(
                from: FileManager.default.currentDirectoryPath, sourceDirectory: environment[sourceDirectoryVariable])
        else {
            StandardStreams.write(
                "wick fuzz: no Wick source checkout here or above (nor in \(sourceDirectoryVariable))\n" + usage,
                to: StandardStreams.error)
            return 2
        }
        let path = checkout + "/" + script
        // execv copies the strings before it returns (only on failure); strdup's copies stay
        // alive until then, and their leak on failure ends with the process.
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        StandardStreams.write(
            "wick fuzz: cannot run \(path): \(String(cString: strerror(errno)))\n", to: StandardStreams.error)
        return 126
    }

    /// Whether `directory` holds the script and the Fuzz package.
    private static func isCheckout(_ directory: String) -> Bool {
        let manager = FileManager.default
        return manager.isExecutableFile(atPath: directory + "/" + script)
            && manager.fileExists(atPath: directory + "/Fuzz/Package.swift")
    }
}
