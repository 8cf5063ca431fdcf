// Channel.localAddress: the connected end's address over IPv4, IPv6 and Unix sockets, kept after close.
import Testing
import WickCore

@testable import WickReactor

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ChannelLocalAddressTests {
    /// The peer address of the server's accepted socket: what the client's end must report.
    private static func peerName(_ fd: Int32) throws -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        try #require(result == 0)
        return try #require(
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
            })
    }

    @Test(arguments: [TestListener.Family.ipv4, .ipv6])
    func theLocalAddressIsWhatTheServerSeesAndIsKeptAfterClose(family: TestListener.Family) async throws {
        guard family == .ipv4 || TestListener.hasIPv6Loopback else { return }
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try TestListener(family)
        defer { listener.close() }
        let channel = try await Connector(resolver: group.resolver).connect(to: listener.address, on: group.next())
        let server = try #require(listener.accept())
        defer { close(server) }
        let (before, after) = try await channel.loop.submit {
            let before = channel.localAddress
            channel.close()
            return (before, channel.localAddress)
        }
        let local = try #require(before)
        #expect(local == (try Self.peerName(server)))
        #expect(local.isIPv6 == (family == .ipv6))
        #expect(after == local)
    }

    @Test func aChannelClosedBeforeTheFirstReadHasNone() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let listener = try TestListener()
        defer { listener.close() }
        let channel = try await Connector(resolver: group.resolver).connect(to: listener.address, on: group.next())
        let server = try #require(listener.accept())
        defer { close(server) }
        let local = try await channel.loop.submit {
            channel.close()
            return channel.localAddress
        }
        #expect(local == nil)
    }

    @Test func aUnixSocketClientEndHasNoName() async throws {
        let group = try makeGroup()
        defer { group.shutdownGracefully() }
        let path = "/tmp/wick-local-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listenFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listenFD)
            unlink(path)
        }
        let address = SocketAddress.unix(path: path)
        #expect(try address.withSockAddr { pointer, length in bind(listenFD, pointer, length) } == 0)
        #expect(listen(listenFD, 8) == 0)
        let channel = try await Connector(resolver: group.resolver).connect(to: address, on: group.next())
        let server = accept(listenFD, nil, nil)
        defer { close(server) }
        let (local, remote) = try await channel.loop.submit {
            defer { channel.close() }
            return (channel.localAddress, channel.remoteAddress)
        }
        #expect(local == nil)
        #expect(remote == address)
    }
}
