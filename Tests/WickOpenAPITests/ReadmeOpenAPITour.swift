// README's "OpenAPI clients" example, on the committed generated client, compiled with the
// tests. Never run: the server URL is the document's example.
import Wick
import WickOpenAPI

private func readmeOpenAPITour(session: Session) async throws {
    let client = Client(serverURL: try Servers.Server1.url(), transport: WickClientTransport(session: session))
    let pet = try await client.createPet(body: .json(.init(name: "Tom"))).ok.body.json  // one Wick request
    _ = pet
}
