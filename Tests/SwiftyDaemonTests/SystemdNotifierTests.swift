import Foundation
import Testing

@testable import SwiftyDaemon

struct SystemdNotifierTests {
    @Test func sendsReadyToTheNotifySocket() async throws {
        let socket = try NotifySocket()
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path]).notify("READY=1"))
        #expect(try await socket.receive(limit: .seconds(5)) == "READY=1")
    }

    @Test func withoutASocketNothingIsSent() {
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"))
    }
}
