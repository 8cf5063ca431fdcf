// Applies a HostLabelPolicy: remembers the hosts given labels, never more than the bound.
import Synchronization

/// Turns a host into its dimension value under a `HostLabelPolicy`. Safe from any thread; its
/// memory is bounded by the policy (at most `maximumDistinct` remembered hosts).
final class HostLabeller: Sendable {
    let policy: HostLabelPolicy
    /// The hosts that have their own label (`firstSeen` only).
    private let labelled = Mutex<Set<String>>([])

    init(policy: HostLabelPolicy) {
        self.policy = policy
    }

    /// The `server.address` value for `host`, or nil when the policy omits the dimension.
    func label(for host: String) -> String? {
        switch policy {
        case .omitted:
            return nil
        case .allowList(let hosts):
            return hosts.contains(host) ? host : HostLabelPolicy.otherHostLabel
        case .firstSeen(let maximum):
            let admitted = labelled.withLock { hosts in
                if hosts.contains(host) { return true }
                guard hosts.count < maximum else { return false }
                hosts.insert(host)
                return true
            }
            return admitted ? host : HostLabelPolicy.otherHostLabel
        }
    }
}
