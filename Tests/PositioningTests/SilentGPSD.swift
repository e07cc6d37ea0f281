import Foundation
import Glibc
import TestSupport

@testable import ArcaptureCore

/// A gpsd stand-in on a loopback port that greets a client with no receiver and then says nothing
/// until it is asked to watch a second time, when it sends one fix: what a gpsd that does not open a
/// newly added receiver for an existing watcher looks like to the client.
final class SilentGPSD: Sendable {
    let port: UInt16
    private let listener: Int32
    private let watches = Locked(0)

    /// The WATCH requests received so far.
    var watchCount: Int { watches.withLock { $0 } }

    init() throws {
        let socket = try LoopbackSocket(listeningWithBacklog: 4)
        listener = socket.descriptor
        port = socket.port
        Thread.detachNewThread { [self] in
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            Self.send(
                client,
                #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
                    + "\n" + #"{"class":"DEVICES","devices":[]}"# + "\n")
            var pending = ""
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { return }
                pending += String(decoding: buffer[0..<count], as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    let line = pending[..<end]
                    pending.removeSubrange(...end)
                    guard line.hasPrefix("?WATCH") else { continue }
                    let number = watches.withLock { count in
                        count += 1
                        return count
                    }
                    Self.send(client, #"{"class":"WATCH","enable":true,"json":true}"# + "\n")
                    if number == 2 {
                        Self.send(
                            client,
                            #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-11-30T02:00:00.000Z","#
                                + #""lat":60.1699,"lon":24.9384,"altHAE":30.0,"eph":4.0}"# + "\n")
                    }
                }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func send(_ descriptor: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
