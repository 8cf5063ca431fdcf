// The order of a round's clients in the suites that alternate them against a peer.

/// The indices of `count` clients in the order round `round` runs them: each round starts one
/// client further on, so that no client always runs first (right after the peer process and the
/// load generator of the round before) or always after the same other one.
func rotatedOrder(of count: Int, round: Int) -> [Int] {
    (0..<count).map { ($0 + round) % count }
}
