// wick: a small curl-like command over Wick's Session, and the tour that Scripts/demo runs.
//
//   wick get URL [-H "Name: value"]... [--ca FILE] [--pin sha256//BASE64] [--loops-as-global-executor]
//   wick demo --nginx URL --nginx-tls URL --ca FILE --pin sha256//BASE64 --httpbin URL
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "get":
        // The failure, if any, is printed with the response.
        if try await !GetCommand(arguments: Array(arguments.dropFirst())).run() { exit(1) }
    case "demo":
        try await DemoTour(arguments: Array(arguments.dropFirst())).run()
    default:
        print("usage: wick get URL [-H \"Name: value\"]... [--ca FILE] [--pin sha256//BASE64] [--loops-as-global-executor]")
        print("       wick demo --nginx URL --nginx-tls URL --ca FILE --pin sha256//BASE64 --httpbin URL")
        exit(2)
    }
} catch {
    printError("wick: \(error)")
    exit(1)
}
