// Running a serializer: its value or its error as a WickError, and how long it took.

/// What a response's serializer gave, for `DataResponse` and `DownloadResponse`.
struct SerializerRun<Value> {
    /// The value, or the error: a `WickError` as thrown, any other as
    /// `responseSerializationFailed(reason: .customSerializationFailed(error:))`.
    let result: Result<Value, WickError>
    /// How long `serialize` ran.
    let duration: Duration

    /// Runs `serialize` once, timing it.
    init(_ serialize: () throws -> Value) {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            result = .success(try serialize())
        } catch let error as WickError {
            result = .failure(error)
        } catch {
            result = .failure(.responseSerializationFailed(reason: .customSerializationFailed(error: error)))
        }
        duration = started.duration(to: clock.now)
    }
}
