// wick-bench-openapi: the OpenAPI client swift-openapi-generator made for WickOpenAPITests (its
// `echoQuery` operation) on Wick's `WickClientTransport` and on swift-openapi-async-http-client's
// `AsyncHTTPClientTransport`, driven by `wick-bench openapi` over stdin/stdout so that their
// rounds alternate in one process, under one allocation counter.
//
//   wick-bench-openapi SERVER_URL          e.g. http://127.0.0.1:8080/openapi
//
// Commands, one per line; each answer is one line, `ok VALUES` or `error MESSAGE`:
//   self-test                        VALUE 1 when the allocation counter counts calls to malloc
//   seq wick|ahc|memory COUNT        COUNT sequential `echoQuery` calls on one pooled connection
//                                    (memory: on a transport that answers from memory)
//   conc wick|ahc|memory LANES COUNT COUNT calls from LANES tasks, each calling in turn, over a
//                                    pool of LANES connections
//   quit
// VALUES of `seq` and `conc`: wall ns, process CPU ns (user + system), allocations.
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: wick-bench-openapi SERVER_URL")
    exit(2)
}
let clients: EchoClients
do {
    clients = try EchoClients(serverURL: arguments[1])
} catch {
    print("error \(error)")
    exit(2)
}
while let line = readLine() {
    let words = line.split(separator: " ")
    if words.first == "quit" { break }
    do {
        print("ok \(try clients.run(words))")
    } catch {
        print("error \(String(describing: error).split(separator: "\n").joined(separator: " "))")
    }
    // stdout is a pipe, so fully buffered: every answer goes out at once (nil flushes every stream).
    fflush(nil)
}
clients.shutdown()
