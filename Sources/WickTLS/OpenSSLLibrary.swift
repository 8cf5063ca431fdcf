// Facts about the OpenSSL library Wick is linked against.
internal import CWickOpenSSL

/// The OpenSSL library this process runs with.
public enum OpenSSLLibrary {
    /// The runtime version string, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
    public static var versionString: String {
        // SAFETY: OpenSSL_version returns a pointer to a static, NUL-terminated string.
        String(cString: OpenSSL_version(OPENSSL_VERSION))
    }

    /// The runtime version number in OpenSSL's `0xMNN00PP0L` form.
    public static var versionNumber: UInt {
        UInt(OpenSSL_version_num())
    }

    /// The version number of the headers Wick was compiled against. Wick needs OpenSSL 3;
    /// the runtime's major version must match the headers'.
    public static var headerVersionNumber: UInt {
        UInt(cwick_openssl_header_version_number())
    }
}
