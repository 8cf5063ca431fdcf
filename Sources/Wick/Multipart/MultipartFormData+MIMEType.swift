// The MIME types of common file extensions, for file parts appended without one (Linux has no UTType).

extension MultipartFormData {
    /// The MIME type for a file extension (`jpg`, `JSON`: case does not matter), from a table
    /// of common types; `application/octet-stream` for an extension not in it, or none.
    public static func mimeType(forPathExtension pathExtension: String) -> String {
        mimeTypesByExtension[pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// Common extensions and their registered MIME types (IANA, or the one browsers send).
    static let mimeTypesByExtension: [String: String] = [
        // Text and documents.
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "csv": "text/csv", "tsv": "text/tab-separated-values", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "xml": "application/xml",
        "json": "application/json", "yaml": "application/yaml", "yml": "application/yaml",
        "toml": "application/toml", "ics": "text/calendar", "rtf": "application/rtf",
        "pdf": "application/pdf",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "epub": "application/epub+zip",
        // Images.
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "bmp": "image/bmp", "ico": "image/vnd.microsoft.icon",
        "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic", "heif": "image/heif",
        "avif": "image/avif",
        // Audio and video.
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "oga": "audio/ogg", "flac": "audio/flac",
        "m4a": "audio/mp4", "aac": "audio/aac", "opus": "audio/opus", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska", "avi": "video/x-msvideo",
        "mpeg": "video/mpeg", "mpg": "video/mpeg",
        // Archives and binaries.
        "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz",
        "zst": "application/zstd", "7z": "application/x-7z-compressed", "wasm": "application/wasm",
        "bin": "application/octet-stream",
        // Fonts.
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
    ]
}
