// Reads nginx's access log: how many times each soak request id arrived, and with which method.
import Foundation

/// The soak's requests as nginx logged them (`NginxServer.accessLog`).
struct NginxAccessLog {
    /// Arrivals per id.
    private(set) var counts: [String: Int] = [:]
    /// Ids that arrived more than once with a method that is not idempotent.
    private(set) var repeatedPOSTs: [String] = []

    /// Reads `url`: lines of `<id> <status> <length> <sent> <seconds> <method> <target> <version>`;
    /// lines without a soak id are skipped.
    /// - Throws: the file's read error.
    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[0].hasPrefix("soak-") else { continue }
            let id = String(fields[0])
            counts[id, default: 0] += 1
            if counts[id] == 2 && fields[5] == "POST" { repeatedPOSTs.append(id) }
        }
    }
}
