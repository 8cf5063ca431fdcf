// Ports picked together for one server are different ports.
import Testing
import WickTestSupport

@Suite struct LoopbackPortTests {
    @Test func portsPickedTogetherAreDifferent() throws {
        // Far more than a server asks for: picked one at a time, the kernel may hand a port it
        // just released out again, and two of a server's listeners would then share a port.
        let ports = try LoopbackPort.free(count: 64)
        #expect(ports.count == 64)
        #expect(Set(ports).count == 64)
        #expect(ports.allSatisfy { (1...65_535).contains($0) })
    }
}
