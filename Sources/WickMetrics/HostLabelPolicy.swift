// How many distinct hosts may appear in metric dimensions, so a crawler cannot explode a backend.

/// Which hosts get a `server.address` dimension of their own. Every distinct value of a
/// dimension is a time series in the backend, so a client that talks to arbitrary hosts must
/// bound them; hosts past the bound share `otherHostLabel`.
public enum HostLabelPolicy: Sendable, Equatable {
    /// The first `maximumDistinct` hosts seen get their own label, later ones
    /// `otherHostLabel` (the default: 100).
    case firstSeen(maximumDistinct: Int)
    /// Only these hosts get their own label.
    case allowList(Set<String>)
    /// No host dimension at all: one series per method and status.
    case omitted

    /// The default: the first 100 hosts seen.
    public static let `default` = HostLabelPolicy.firstSeen(maximumDistinct: 100)

    /// The label of every host the policy does not name, OpenTelemetry's "other" spelling.
    public static let otherHostLabel = "_OTHER"
}
