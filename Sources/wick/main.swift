// wick: a curl-compatible command over Wick's Session, the older `get` report, and the tour
// that Scripts/demo runs.
//
//   wick [options...] URL      curl's flags, output and exit codes (WickCLI; `wick --help`)
//   wick get URL [-H "Name: value"]... [--ca FILE] [--pin sha256//BASE64] [--loops-as-global-executor]
//   wick demo --nginx URL --nginx-tls URL --ca FILE --pin sha256//BASE64 --httpbin URL
//   wick bench URL [-c N] [--connections N] [-n N | -d DURATION] [--rate R] [-H "Name: value"]... [-m S]
//              [--http1.1 | --http2 | --http2-prior-knowledge] [--cacert FILE] [--capath DIR] [-k] [--json]
//   wick pool-test [--seeds N | --seed S ...] [--steps N]   the pool's seeded invariant runs
//   wick fuzz ARGS...          Scripts/fuzz of the source checkout (FuzzCommand)
import Glibc
import WickCLI
import WickPoolChecking

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "get":
        // The failure, if any, is printed with the response.
        if try await !GetCommand(arguments: Array(arguments.dropFirst())).run() { exit(1) }
    case "demo":
        try await DemoTour(arguments: Array(arguments.dropFirst())).run()
    case "bench":
        exit(await LoadGenerator.run(Array(arguments.dropFirst())))
    case "pool-test":
        do {
            let command = try PoolTestCommand(arguments: Array(arguments.dropFirst()))
            // Unbuffered, so that a run's line is out before a trap in the pool could end the process.
            exit(command.run { StandardStreams.write($0, to: StandardStreams.output) })
        } catch {
            StandardStreams.write("wick pool-test: \(error)", to: StandardStreams.error)
            exit(2)
        }
    case "fuzz":
        exit(FuzzCommand.run(Array(arguments.dropFirst())))
    case nil, "-h", "--help":
        StandardStreams.write(CurlCommand.usage, to: arguments.isEmpty ? StandardStreams.error : StandardStreams.output)
        exit(arguments.isEmpty ? 2 : 0)
    default:
        exit(await CurlCommand.run(arguments))
    }
} catch {
    StandardStreams.write("wick: \(error)\n", to: StandardStreams.error)
    exit(1)
}
