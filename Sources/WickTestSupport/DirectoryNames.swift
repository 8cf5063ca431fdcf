// Listing a /proc directory without reading past readdir's buffer.
import Foundation

/// The names in a directory (`.` and `..` left out), read with `readdir`, each through a pointer
/// to its entry. Copying `d_name` out of an entry as a value, as Foundation's `Process` does,
/// copies all 256 bytes of the field, past the end of `readdir`'s buffer for an entry near it: a
/// SIGSEGV seen in a CI run once the test process held over a thousand descriptors. Returns `[]`
/// when the directory cannot be opened.
public func directoryNames(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    var names: [String] = []
    while let entry = readdir(directory) {
        // SAFETY: `entry` is valid until the next readdir or closedir, both after this line; d_name
        // lies at nameOffset inside it as a NUL-terminated array of CChar (so binding to CChar matches
        // its element type), and String(cString:) reads only up to that NUL, never the field's full 256
        // bytes.
        let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
