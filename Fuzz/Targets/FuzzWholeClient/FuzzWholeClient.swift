// Fuzzes the whole client against a hostile server: a real `Session` (requests, redirects, the
// pool runner and its state machine, the HTTP/1.1 driver, connection state machine, parser and
// decoders) whose connections are opened over the reactor's socket seam by `ScriptedServer`,
// which delivers the input's bytes split as the input says, across keep-alive reuse, redirects
// the session follows and replays of requests whose reused connection closed under them.
//
// Input: see `WholeClientInput`. Checks: see `WholeClientOracle` (no hang, bounded memory and
// descriptors, a response only from a whole, correctly framed body, no reuse of a connection
// after an error or a closing response, every request ended exactly once).
import CFuzzDriver
import Dispatch
import FoundationEssentials
import Glibc
@_spi(WickSocketSeam) import Wick

@main enum Main {
    static func main() {
        // One run first, unchecked: Dispatch and the concurrency runtime open their descriptors
        // the first time they are used, which would look like a leak of the first input.
        fuzz(warmUpInput, checkingDescriptors: false)
        cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzWholeClient)
    }
}

/// LeakSanitizer off, for libFuzzer's checks after each input and for the one at exit (ASan
/// reads this before `main`): a Swift object that has been weakly referenced points to its side
/// table only in an encoded form, so while another thread is still releasing one (the session's
/// loop thread, the tasks that drove the run) LSan reports the side table as leaked; and at exit
/// it reports libdispatch's per-thread continuation cache (at most 1,024 blocks of 64 bytes).
/// The run checks what a leak would break instead: the session is released and the descriptor
/// count is back where it was.
@_cdecl("__asan_default_options")
public func asanDefaultOptions() -> UnsafePointer<CChar> {
    let options: StaticString = "detect_leaks=0"
    // SAFETY: a string literal's bytes are NUL-terminated constants in the binary, alive for the
    // life of the process; ASan only reads them.
    return UnsafeRawPointer(options.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// A GET answered by a 200 with a small body.
let warmUpInput = [0, 0, 0, 0] + Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)

/// The session's response body limit: small, so that the limit's path is reachable.
let bodyLimit = 16 * 1024
/// How long the run waits for its requests, or for the session's shutdown, before calling it a
/// hang (no request needs a timer here, so anything near this is stuck, not slow).
let hangSeconds = 30

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWholeClient(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    fuzz(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [], checkingDescriptors: true)
    return 0
}

/// Runs one input and checks the oracle, and that the run left no descriptor open.
private func fuzz(_ bytes: [UInt8], checkingDescriptors: Bool) {
    guard let input = WholeClientInput(bytes) else { return }
    let descriptors = openDescriptorCount()
    let server = ScriptedServer(plan: input.server, inputSize: bytes.count)
    let (outcomes, session) = run(input, server: server)
    server.closePeers()
    WholeClientOracle(input: input, server: server, outcomes: outcomes).check()
    waitUntilReleased(session)
    let after = openDescriptorCount()
    require(!checkingDescriptors || after == descriptors, "descriptors: \(descriptors) before the run, \(after) after it")
}

/// What the run's requests ended with, as an awaiting task and as a response handler saw it.
/// Thread ownership: `awaited` is written by the run's task, `handled` on the handlers' queue;
/// both are read only after the task finished and the queue was drained.
final class RunOutcomes: @unchecked Sendable {
    var awaited: [DataResponse<Data, WickError>?]
    var handled: [[DataResponse<Data?, WickError>]]
    /// Requests the session still tracked after its shutdown.
    var unfinished = 0

    init(count: Int) {
        awaited = Array(repeating: nil, count: count)
        handled = Array(repeating: [], count: count)
    }
}

/// Makes the input's requests one after the other on a fresh session, from a task on the
/// session's loop (so requests, connections and the server's script all move on one thread, in
/// an order the input alone decides), then shuts the session down.
private func run(_ input: WholeClientInput, server: ScriptedServer) -> (RunOutcomes, Weak<Session>) {
    var configuration = Session.Configuration()
    configuration.proxy = .none
    configuration.trustRoots = .certificates([])
    configuration.idleTransferTimeout = nil
    configuration.maximumConnectionsPerHost = input.oneConnectionPerOrigin ? 1 : 4
    configuration.maximumResponseBodyBytes = bodyLimit
    configuration.automaticallyDecodesResponseBodies = input.decodesBodies
    let session = Session(configuration: configuration, dialer: server.dialer)
    let outcomes = RunOutcomes(count: input.requests.count)
    let handlers = DispatchQueue(label: "fuzz.handlers")
    let requestsDone = DispatchSemaphore(value: 0)
    Task {
        await withTaskExecutorPreference(session.taskExecutor) {
            for (index, planned) in input.requests.enumerated() {
                server.currentUser = index
                let request = session.request(
                    planned.url, method: HTTPMethod(rawValue: planned.method), body: planned.body.map { Data($0) })
                request.response(queue: handlers) { outcomes.handled[index].append($0) }
                outcomes.awaited[index] = await request.serializingData().response
            }
        }
        requestsDone.signal()
    }
    waitOrTrap(requestsDone, "the requests to end")
    let shutDown = DispatchSemaphore(value: 0)
    Task {
        await session.shutdown()
        shutDown.signal()
    }
    waitOrTrap(shutDown, "the session to shut down")
    handlers.sync {}
    session.withAllRequests { outcomes.unfinished = $0.count }
    return (outcomes, Weak(session))
}

/// Waits until the run's session is gone: the tasks that drove it let go of it a moment after
/// they signalled, and nothing else may keep it (a retain cycle through its requests, runners,
/// connections or loops would keep them all, and their memory, for the life of the process).
/// Waiting also keeps LeakSanitizer from seeing a live object's weak-reference side table, which
/// Swift points to only in an encoded form, as a leak.
private func waitUntilReleased(_ session: Weak<Session>) {
    var waited = 0
    while session.object != nil {
        waited += 1
        require(waited <= hangSeconds * 10_000, "the session outlived its run by \(hangSeconds) s: something keeps it")
        usleep(100)
    }
}

/// A weak reference, to see whether something outlived its run.
final class Weak<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) { self.object = object }
}

private func waitOrTrap(_ semaphore: DispatchSemaphore, _ what: String) {
    if semaphore.wait(timeout: .now() + .seconds(hangSeconds)) == .timedOut {
        fail("hang: waited \(hangSeconds) s for \(what)")
    }
}

/// The process's open descriptors (entries of /proc/self/fd, less the listing's own).
private func openDescriptorCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { fail("opendir /proc/self/fd: errno \(errno)") }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
}
