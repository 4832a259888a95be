import FoundationEssentials

// Ringing the paired phones when an alarm rings unanswered at the desk.
extension AgentState {
    /// Follows the user's new phone settings: alarms that fire from now on follow them; phones
    /// not yet rung for the alarms ringing now are not rung once the setting is off, unless the
    /// alarm asked for them itself (`--phone`).
    mutating func adopt(phoneRings settings: PhoneRingSettings, into plan: inout EffectPlan) {
        guard settings != phones.settings else { return }
        phones.settings = settings
        if !settings.isEnabled {
            phones.due = phones.due.filter { id, _ in if case .ring? = book[id]?.phone { true } else { false } }
        }
        let line = settings.isEnabled
            ? "Alarms ring the paired phones after \(DurationFormat.spoken(settings.delay)) unanswered."
            : "Alarms ring no phone."
        plan.add(.log(.info, line), to: .sound)
        plan.armTimers()
    }

    /// What the phones having been rung for `alarm` means: its `phone` hook, if it has one.
    func phonesRung(for alarm: Alarm) -> [AgentEffect] {
        guard let command = alarm.hooks[.phone] else { return [] }
        guard alarm.mayRunHooks else {
            return [.log(.warning, "Not running the phone hook of “\(alarm.title)”: \(alarm.owner) may run no command.")]
        }
        return [.runHook(command: command, event: .phone, alarm: alarm, fireTime: alarm.fireDate)]
    }

    /// The phones of the alarms still ringing whose time to ring them has come; an alarm no
    /// longer ringing is dropped.
    mutating func phonesDue(now: Date) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for (id, due) in phones.due.sorted(by: { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }) where due <= now {
            phones.due[id] = nil
            guard let alarm = book[id], case .alerting(let since) = alarm.state else { continue }
            // How long this alarm rang, measured: its own delay (--phone-after) or the settings'.
            let rang = now.timeIntervalSince(since).rounded()
            effects.append(.log(.info, "“\(alarm.title)” has rung \(DurationFormat.spoken(rang)) unanswered; ringing the phones."))
            effects.append(.ringPhones(alarm))
        }
        return effects
    }
}
