// Handing a started channel to a second delegate (a proxy tunnel giving its socket to TLS).
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ChannelDetachTests {
    @Test func aDetachedChannelReadsNothingUntilTheNextDelegateStartsIt() async throws {
        let group = try makeGroup()
        let listener = try TestListener()
        defer {
            group.shutdownGracefully()
            listener.close()
        }
        let channel = try await Connector(resolver: group.resolver).connect(to: listener.address, on: group.next())
        let server = try #require(listener.accept())
        defer { close(server) }
        let first = Recorder()
        let second = Recorder()
        try await start(channel, first)
        TestSockets.writeAll(server, Array("one".utf8))
        #expect(await eventually { first.snapshot.bytes.count == 3 })
        try await channel.loop.submit { channel.detachDelegate() }
        // Written while detached, then the peer finishes: both wait in the kernel.
        TestSockets.writeAll(server, Array("two".utf8))
        shutdown(server, Int32(SHUT_WR))
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await channel.loop.submit { channel.isOpen })
        try await start(channel, second)
        #expect(await eventually { second.snapshot.eof })
        #expect(second.snapshot.bytes == Array("two".utf8))
        try await channel.loop.submit { channel.close() }
        #expect(await eventually { second.snapshot.closed })
        let old = first.snapshot
        #expect(old.bytes == Array("one".utf8) && !old.eof && !old.closed)
    }

    @Test func writesQueuedBeforeTheHandOverStillGoOut() async throws {
        let group = try makeGroup()
        let listener = try TestListener()
        defer {
            group.shutdownGracefully()
            listener.close()
        }
        let channel = try await Connector(resolver: group.resolver).connect(to: listener.address, on: group.next())
        let server = try #require(listener.accept())
        defer { close(server) }
        try await start(channel, Recorder())
        try await channel.loop.submit {
            try channel.write(Array("CONNECT x:1 HTTP/1.1\r\n\r\n".utf8))
            channel.detachDelegate()
        }
        #expect(TestSockets.readToEnd(server, limit: 24) == Array("CONNECT x:1 HTTP/1.1\r\n\r\n".utf8))
        try await channel.loop.submit { channel.close() }
    }
}
