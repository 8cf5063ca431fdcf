// Traps that keep their message in a release build (the fuzzer's), unlike `precondition`.

/// Traps with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// Traps with `message`.
func fail(_ message: String) -> Never {
    fatalError(message)
}
