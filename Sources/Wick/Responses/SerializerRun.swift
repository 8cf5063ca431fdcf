// Running a serializer: its value or its error as a WickError, and how long it took.
import WickCore

/// What a response's serializer gave, for `DataResponse` and `DownloadResponse`.
struct SerializerRun<Value> {
    /// The value, or the error: a `WickError` as thrown, any other as
    /// `responseSerializationFailed(reason: .customSerializationFailed(error:))`.
    let result: Result<Value, WickError>
    /// How long `serialize` ran.
    let duration: Duration

    /// Runs `serialize` once, timing it.
    init(_ serialize: () throws -> Value) {
        // The monotonic clock the transport reads (`Deadline`): `ContinuousClock`'s instants
        // cost a runtime call and 128-bit arithmetic at each end, on every response.
        let started = Deadline.now()
        do {
            result = .success(try serialize())
        } catch let error as WickError {
            result = .failure(error)
        } catch {
            result = .failure(.responseSerializationFailed(reason: .customSerializationFailed(error: error)))
        }
        duration = Deadline.now() - started
    }
}
