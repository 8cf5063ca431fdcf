// wick: a small curl-like command over Wick's layers, and the tour that Scripts/demo runs.
//
//   wick get URL [-H "Name: value"]... [--compressed]
//   wick demo --nginx URL --nginx-tls URL --ca FILE --httpbin URL
import Glibc
import WickCore
import WickReactor

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "get":
        try await GetCommand(arguments: Array(arguments.dropFirst())).run()
    case "demo":
        try await DemoTour(arguments: Array(arguments.dropFirst())).run()
    default:
        print("usage: wick get URL [-H \"Name: value\"]... [--compressed]")
        print("       wick demo --nginx URL --nginx-tls URL --ca FILE --httpbin URL")
        exit(2)
    }
} catch {
    printError("wick: \(error)")
    exit(1)
}
