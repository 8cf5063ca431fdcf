// Where a response handler's serializer runs: the session's serialization queue, or the
// handler's own queue.
import Dispatch

extension Request {
    /// Calls `completion` on `queue` with what `serialize` makes. With a session
    /// `serializationQueue` (Alamofire's meaning), `serialize` runs there first; without one,
    /// both run on `queue`, one hop from the thread that finished the request.
    func serialize<Response: Sendable>(
        on queue: DispatchQueue, then completion: @escaping @Sendable (Response) -> Void,
        _ serialize: @escaping @Sendable () -> Response
    ) {
        guard let serializationQueue = session.serializationQueue else {
            return queue.async { completion(serialize()) }
        }
        serializationQueue.async {
            let response = serialize()
            queue.async { completion(response) }
        }
    }
}
