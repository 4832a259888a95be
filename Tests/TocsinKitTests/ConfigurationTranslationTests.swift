import Foundation
import Testing
import TocsinCore
@testable import TocsinKit

extension TocsinKitTests {
    /// What an AlarmKit configuration becomes in the agent's request, and what is kept as data —
    /// no agent needed.
    @Suite(.serialized) struct ConfigurationTranslationTests {
        let id = UUID()

        @Test func aTimerWithACustomButtonHandledInTheAppGetsAHookThatDoesNothing() throws {
            let configuration = AlarmManager.AlarmConfiguration.timer(
                duration: 90, attributes: TestConfigurations.attributes("Bread", metadata: Note(text: "rye"), secondaryButton: "Open", behavior: .custom))
            let request = try ScheduleRequestBuilder.request(for: configuration, id: id)
            #expect(request.kind == .timer)
            #expect(request.duration == 90)
            #expect(request.title == "Bread")
            #expect(request.secondaryButtonLabel == "Open")
            #expect(request.snoozeDuration == nil)
            #expect(request.hooks.commands == [.secondary: ScheduleRequestBuilder.appHandledCommand])
            let header = try #require(request.metadata.flatMap(AlarmMetadataEnvelope.header(from:)))
            #expect(header.id == id)
            #expect(AlarmMetadataEnvelope.metadata(as: Note.self, from: request.metadata!) == Note(text: "rye"))
        }

        @Test func commandIntentsBecomeHooksAndACountdownButtonASnooze() throws {
            let configuration = AlarmManager.AlarmConfiguration(
                countdownDuration: .init(preAlert: 300, postAlert: 120),
                schedule: .relative(.init(time: .init(hour: 6, minute: 30), repeats: .weekly([.saturday, .sunday]))),
                attributes: TestConfigurations.attributes("Run", secondaryButton: "Later", behavior: .countdown),
                stopIntent: .command("notify-send stopped"), secondaryIntent: .command("notify-send snoozed"),
                sound: .named("bell"))
            let request = try ScheduleRequestBuilder.request(for: configuration, id: id)
            #expect(request.kind == .alarm)
            #expect(request.schedule == .timeOfDay(try TimeOfDay(hour: 6, minute: 30), weekdays: [.saturday, .sunday]))
            #expect(request.duration == 300)
            #expect(request.snoozeDuration == 120)
            #expect(request.secondaryButtonLabel == "Later")
            #expect(request.sound == .themeEvent("bell"))
            #expect(request.hooks.commands == [.stop: "notify-send stopped", .snooze: "notify-send snoozed"])
        }

        @Test func thePhonesChoiceGoesIntoTheRequest() throws {
            var configuration = AlarmManager.AlarmConfiguration.timer(duration: 60, attributes: TestConfigurations.attributes("Tea"))
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).phone == nil, "as the user's setting says")
            configuration.phones = .never
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).phone == .never)
            configuration.phones = .whenUnanswered()
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).phone == .ring(after: nil))
            configuration.phones = .whenUnanswered(after: 45)
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).phone == .ring(after: 45))
        }

        @Test func theOutputRaiseGoesIntoTheRequest() throws {
            var configuration = AlarmManager.AlarmConfiguration.timer(duration: 60, attributes: TestConfigurations.attributes("Tea"))
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).outputRaise == nil, "as the user's settings say")
            configuration.outputRaise = .never
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).outputRaise == .never)
            configuration.outputRaise = .toAtLeast()
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).outputRaise == .raise(toPercent: nil))
            configuration.outputRaise = .toAtLeast(percent: 85)
            #expect(try ScheduleRequestBuilder.request(for: configuration, id: id).outputRaise == .raise(toPercent: 85))
        }

        @Test func onlyWhatWouldHarmThePersonIsRefused() {
            let attributes = TestConfigurations.attributes("Odd")
            let refused: [(AlarmManager.AlarmConfiguration<Note>, String)] = [
                (.init(attributes: attributes), "neither a schedule"),
                (.alarm(schedule: .relative(.init(time: .init(hour: 25, minute: 0))), attributes: attributes), "is not a time of day"),
                (.alarm(localDateTime: .init(year: 2026, month: 2, day: 30, time: .init(hour: 7, minute: 0)), attributes: attributes), "February 2026 has 28 days"),
                (.alarm(schedule: .fixed(.now), attributes: attributes).with { $0.localDateTime = .init(year: 2099, month: 1, day: 1, time: .init(hour: 7, minute: 0)) },
                 "both a schedule and a localDateTime"),
                (.timer(duration: 60, attributes: attributes, stopIntent: LocalIntent.make()), "declare it at file scope"),
            ]
            for (configuration, phrase) in refused {
                #expect {
                    try ScheduleRequestBuilder.request(for: configuration, id: id)
                } throws: { error in
                    guard case AlarmManager.AlarmError.tocsin(.invalidArgument(let message)) = error else { return false }
                    return message.contains(phrase)
                }
            }
        }

        /// An intent type declared inside a function, which the runtime cannot find by name.
        enum LocalIntent {
            static func make() -> any LiveActivityIntent {
                struct Hidden: LiveActivityIntent {
                    static let title: LocalizedStringResource = "Hidden"
                    func perform() async throws -> some IntentResult { .result() }
                }
                return Hidden()
            }
        }

        @Test func aSecondaryIntentWithoutAButtonIsKeptAndNotShownAndPostAlertStillSnoozes() throws {
            // The iOS 26.0 pattern: a Stop-only alert, a snooze intent, a five-minute postAlert.
            let configuration = AlarmManager.AlarmConfiguration(
                countdownDuration: .init(preAlert: nil, postAlert: 300),
                schedule: .relative(.init(time: .init(hour: 7, minute: 0))),
                attributes: TestConfigurations.attributes("Wake up"),
                secondaryIntent: RepeatIntent(alarmID: id.uuidString, round: 1))
            let request = try ScheduleRequestBuilder.request(for: configuration, id: id)
            #expect(request.secondaryButtonLabel == nil)
            #expect(request.snoozeDuration == 300 && !request.snoozeButton, "snoozable by countdown(id:), with no button")
            #expect(request.appIntents == nil, "the intent has no button to be pressed")
            #expect(request.hooks.isEmpty)
            let alarm = try request.makeAlarm(id: id, now: Date(), timeZone: .utc)
            #expect(alarm.secondaryButton == nil && alarm.snoozeDuration == 300, "the agent takes it")

            // A command intent without a button, likewise.
            let commanded = try ScheduleRequestBuilder.request(
                for: .timer(duration: 60, attributes: TestConfigurations.attributes("Tea"), secondaryIntent: .command("echo again")), id: id)
            #expect(commanded.hooks.isEmpty && commanded.secondaryButtonLabel == nil)
            #expect(commanded.snoozeDuration == 60 && !commanded.snoozeButton, "the timer's own postAlert")
        }

        @Test func aButtonOrBehaviourAloneIsNotShown() throws {
            for attributes in [TestConfigurations.attributes("Odd", secondaryButton: "What"), TestConfigurations.attributes("Odd", behavior: .custom)] {
                let request = try ScheduleRequestBuilder.request(for: .alarm(schedule: .fixed(.now.addingTimeInterval(600)), attributes: attributes), id: id)
                #expect(request.secondaryButtonLabel == nil && request.hooks.isEmpty && request.snoozeDuration == nil)
                #expect(try request.makeAlarm(id: id, now: Date()).secondaryButton == nil)
            }
        }

        @Test func aCountdownButtonWithoutPostAlertSnoozesForThePreAlertElseNineMinutes() throws {
            let attributes = TestConfigurations.attributes("Wake up", secondaryButton: "Snooze", behavior: .countdown)
            let request = try ScheduleRequestBuilder.request(for: .alarm(schedule: .relative(.init(time: .init(hour: 6, minute: 30))), attributes: attributes), id: id)
            #expect(request.snoozeDuration == 9 * 60 && request.snoozeButton)
            #expect(request.secondaryButtonLabel == "Snooze")
            // AlarmKit: "If the value is nil we will use the preAlert duration for post-alarm countdowns."
            let withPreAlert = try ScheduleRequestBuilder.request(
                for: AlarmManager.AlarmConfiguration(countdownDuration: .init(preAlert: 120, postAlert: nil),
                                                     schedule: .relative(.init(time: .init(hour: 6, minute: 30))), attributes: attributes), id: id)
            #expect(withPreAlert.snoozeDuration == 120)
            // postAlert 0 is "no snooze" in AlarmKit code, as preAlert 0 is "no countdown".
            let zeros = try ScheduleRequestBuilder.request(
                for: AlarmManager.AlarmConfiguration(countdownDuration: .init(preAlert: 0, postAlert: 0), schedule: .fixed(.now.addingTimeInterval(600)),
                                                     attributes: TestConfigurations.attributes("Meeting")), id: id)
            #expect(zeros.duration == 0 && zeros.snoozeDuration == nil)
        }

        @Test func aWeeklyRepeatOnNoDayRingsOnceAndReadsBackSo() throws {
            let request = try ScheduleRequestBuilder.request(
                for: .alarm(schedule: .relative(.init(time: .init(hour: 7, minute: 15), repeats: .weekly([]))), attributes: TestConfigurations.attributes("Once")), id: id)
            #expect(request.schedule == .timeOfDay(try TimeOfDay(hour: 7, minute: 15), weekdays: []))
            let alarm = AlarmTranslation.kitAlarm(try request.makeAlarm(id: id, now: Date(), timeZone: .utc))
            #expect(alarm.schedule == .relative(.init(time: .init(hour: 7, minute: 15), repeats: .never)))
        }

        @Test func aSoundNoDesktopCanFindRingsAsTheDefaultAndOthersAskTheAgentToFallBack() throws {
            let unfindable = try ScheduleRequestBuilder.request(for: .timer(duration: 60, attributes: TestConfigurations.attributes("Tea"), sound: .named("Sounds/alarm.caf")), id: id)
            #expect(unfindable.sound == .standard && !unfindable.soundFallback)
            let named = try ScheduleRequestBuilder.request(for: .timer(duration: 60, attributes: TestConfigurations.attributes("Tea"), sound: .named("alarm.caf")), id: id)
            #expect(named.sound == .themeEvent("alarm.caf") && named.soundFallback, "the agent rings the default if no theme has it")
            let standard = try ScheduleRequestBuilder.request(for: .timer(duration: 60, attributes: TestConfigurations.attributes("Tea")), id: id)
            #expect(standard.sound == .standard && !standard.soundFallback)
        }

        @Test func textTooLongForANotificationIsShortenedNotRefused() throws {
            let title = String(repeating: "t", count: 250), label = String(repeating: "b", count: 60)
            let request = try ScheduleRequestBuilder.request(
                for: .timer(duration: 60, attributes: TestConfigurations.attributes(title, secondaryButton: label, behavior: .countdown)), id: id)
            #expect(request.title == String(repeating: "t", count: 199) + "…")
            #expect(request.secondaryButtonLabel == String(repeating: "b", count: 39) + "…")
            #expect(try request.makeAlarm(id: id, now: Date()).title.count == 200, "the agent takes it")
        }

        @Test func theAgentsAlarmReadsBackWithTheCallersIDAndSchedule() throws {
            let request = try ScheduleRequestBuilder.request(
                for: AlarmManager.AlarmConfiguration.alarm(schedule: .relative(.init(time: .init(hour: 7, minute: 0), repeats: .never)),
                                                           attributes: TestConfigurations.attributes("Wake")),
                id: id)
            let now = Date()
            let agentAlarm = try request.makeAlarm(id: UUID(), now: now, timeZone: .utc)
            guard case .localDateTime? = agentAlarm.schedule else {
                Issue.record("the agent no longer pins a one-shot time of day: \(String(describing: agentAlarm.schedule))")
                return
            }
            let alarm = AlarmTranslation.kitAlarm(agentAlarm)
            #expect(alarm.id == id)
            #expect(alarm.agentID == agentAlarm.id)
            #expect(alarm.schedule == .relative(.init(time: .init(hour: 7, minute: 0), repeats: .never)))
            #expect(AlarmTranslation.agentAlarm(knownAs: id, in: [agentAlarm])?.id == agentAlarm.id)
            #expect(AlarmTranslation.agentAlarm(knownAs: agentAlarm.id, in: [agentAlarm])?.id == agentAlarm.id)
        }

        @Test func aDatedLocalAlarmGoesToTheAgentAsOneAndReadsBackAsAnInstantBesideItsDate() throws {
            let local = Alarm.LocalDateTime(year: 2099, month: 12, day: 24, time: .init(hour: 18, minute: 0))
            let request = try ScheduleRequestBuilder.request(for: AlarmManager.AlarmConfiguration.alarm(localDateTime: local, attributes: TestConfigurations.attributes("Dinner")), id: id)
            #expect(request.kind == .alarm)
            #expect(request.schedule == .localDateTime(try LocalDate(year: 2099, month: 12, day: 24), try TimeOfDay(hour: 18, minute: 0)))

            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let calendarsInstant = try #require(utc.date(from: DateComponents(year: 2099, month: 12, day: 24, hour: 18, minute: 0)))
            let waiting = ScheduleTranslation.readBack(try #require(request.schedule), relativeOnce: false, fireDate: nil, calendar: utc)
            #expect(waiting == .init(schedule: .fixed(calendarsInstant), localDateTime: local), "without the agent's fire date, the calendar's")
            let agentsInstant = calendarsInstant.addingTimeInterval(3600)
            #expect(ScheduleTranslation.readBack(try #require(request.schedule), relativeOnce: false, fireDate: agentsInstant, calendar: utc)
                    == .init(schedule: .fixed(agentsInstant), localDateTime: local), "the agent's fire date, when it has one")
            // A one-shot time of day is stored the same way, and reads back as AlarmKit wrote it.
            #expect(ScheduleTranslation.readBack(try #require(request.schedule), relativeOnce: true, fireDate: nil)
                    == .init(schedule: .relative(.init(time: .init(hour: 18, minute: 0)))))
        }

        @Test func metadataWrittenByAnotherClientIsReadAsIs() {
            #expect(AlarmMetadataEnvelope.header(from: #"{"text":"plain"}"#) == nil)
            #expect(AlarmMetadataEnvelope.metadata(as: Note.self, from: #"{"text":"plain"}"#) == Note(text: "plain"))
        }

        @Test func iconsAndColoursAreKeptAsData() {
            let names = ["pause.fill": "media-playback-pause", "stop.circle.fill": "media-playback-stop",
                         "forward.end.fill": "media-skip-forward", "xmark": "window-close", "repeat": "media-playlist-repeat"]
            for (symbol, icon) in names {
                #expect(AlarmButton(text: "", textColor: .white, systemImageName: symbol).freedesktopIconName == icon)
            }
            #expect(AlarmButton(text: "", textColor: .white, systemImageName: "sparkles").freedesktopIconName == nil)
            #expect(Color.orange.hexadecimal == "#ff9400")
            #expect(Color.white.hexadecimal == "#ffffff")
        }
    }
}
