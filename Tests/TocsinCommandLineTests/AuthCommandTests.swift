import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin auth list|grant|revoke|reset`.
@Suite struct AuthCommandTests {
    @Test func listsTheCommandLineThenEachApplicationByID() {
        let world = TestWorld()
        world.agent = FakeAgent(applications: [
            ApplicationRecord(appID: "org.example.Cook", authorization: .authorized, confinement: .flatpak, alarmCount: 2),
            ApplicationRecord(appID: "com.example.Nag", authorization: .denied, confinement: nil, alarmCount: 1),
            ApplicationRecord(appID: "net.example.Tool", authorization: .notDetermined, confinement: .unconfined, alarmCount: 0),
        ])
        let run = world.run("auth", "list")
        #expect(run.status == 0)
        #expect(run.stdout == """
            tocsin  authorized (this command line, always)
            com.example.Nag  denied  sandbox not known (it has not asked yet)  1 alarm
            net.example.Tool  notDetermined  not sandboxed  0 alarms
            org.example.Cook  authorized  Flatpak sandbox  2 alarms

            """)
    }

    @Test func grantRevokeAndResetRecordTheAnswer() {
        let world = TestWorld()
        for action in ["grant", "revoke", "reset"] {
            let run = world.run("auth", action, "org.example.Cook")
            #expect(run.status == 0 && run.stdout == "" && run.stderr == "", "\(action): \(run.stderr)")
        }
        #expect(world.agent?.authorizations.map { "\($0.0.rawValue) \($0.1)" }
            == ["authorized org.example.Cook", "denied org.example.Cook", "notDetermined org.example.Cook"])
    }

    @Test(arguments: [
        ([String](), "Missing what to do: list, grant, revoke or reset."),
        (["frob"], "Unknown auth action “frob”: list, grant, revoke or reset."),
        (["grant"], "Missing APP."),
        (["grant", "a", "b"], "Unexpected argument “b”."),
        (["list", "extra"], "Unexpected argument “extra”."),
        (["list", "--all"], "Unknown option “--all” for “tocsin auth”."),
    ])
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["auth"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin auth --help”.\n")
        #expect(world.agent?.authorizations.isEmpty == true)
    }
}
