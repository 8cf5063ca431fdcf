// Trust roots from a PEM file of certificates: `--cacert`, and `wick get --ca`.
public import Wick
import FoundationEssentials

extension TrustRoots {
    /// The certificates in the PEM file at `path`, or nil when it cannot be read or holds none.
    public static func certificates(inPEMFile path: String) -> TrustRoots? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
            let certificates = try? Certificate.chain(pemEncoded: String(decoding: data, as: UTF8.self)),
            !certificates.isEmpty
        else { return nil }
        return .certificates(certificates)
    }
}
