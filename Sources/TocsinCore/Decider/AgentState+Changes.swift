import FoundationEssentials

// A change someone asks for: made in the book at once, saved before it takes effect, undone
// when it cannot be saved.
extension AgentState {
    /// Makes `change` in the book and asks for it to be saved (`.commit`); a change the book
    /// refuses is answered at once and leaves nothing changed. Written to the plan's last stage,
    /// after everything time did in this decision.
    mutating func make(_ change: AlarmChange, by origin: ChangeOrigin, now: Date, into plan: inout EffectPlan) {
        // Made in place and undone if it cannot be saved: a copy of the book to throw away
        // would copy every alarm on each call.
        book.beginTransaction()
        var events: [AlarmEvent] = []
        do throws(AlarmError) {
            switch change {
            case .schedule(let request, let id, let owner, let confinement, let ownerLimit):
                events.append(try book.schedule(request, id: id, now: now, owner: owner, confinement: confinement, ownerLimit: ownerLimit))
            case .perform(let intent, let id):
                events.append(try book.perform(intent, on: id, now: now))
            case .stopEveryRinging:
                for alarm in book.onScreenOldestFirst where alarm.state.name == .alerting {
                    events.append(try book.perform(.stop, on: alarm.id, now: now))
                }
            }
        } catch {
            book.rollBackTransaction()
            plan.add(.answer(.refused(error)), to: .change)
            return
        }
        guard !events.isEmpty else {
            book.endTransaction()
            plan.add(.answer(.made), to: .change)
            return
        }
        pendingChange = PendingChange(events: events, origin: origin)
        plan.add(.commit(events.map(\.journalChange)), to: .change)
    }

    /// The change waiting for its save was saved: the asker is told at once — a client
    /// scheduling many alarms in a row need not wait for each one's effects — and then it
    /// takes effect.
    mutating func changeSaved(now: Date, into plan: inout EffectPlan) {
        guard let pending = pendingChange else {
            plan.add(.log(.warning, "A save was reported, but no change was waiting for one."), to: .answer)
            return
        }
        pendingChange = nil
        book.endTransaction()
        let caller: String? = if case .client(let app) = pending.origin { app } else { nil }
        plan.add(.answer(.made), to: .answer)
        react(to: pending.events, now: now, causedBy: caller, into: &plan)
        plan.armTimers()
        plan.add(tray(at: now), to: .tray)
    }

    /// The change waiting for its save could not be saved: it is undone, and the asker told.
    mutating func changeNotSaved(reason: String, into plan: inout EffectPlan) {
        guard pendingChange != nil else {
            plan.add(.log(.warning, "A failed save was reported, but no change was waiting for one."), to: .answer)
            return
        }
        pendingChange = nil
        book.rollBackTransaction()
        plan.add(.answer(.notSaved(reason: reason)), to: .answer)
    }

    /// Undoes a change whose save was never reported (an agent that went on without answering
    /// the commit): it is not made, and the asker is told it was not saved.
    mutating func abandonPendingChange(into plan: inout EffectPlan) {
        plan.add(.log(.warning, "A change was left without a report of its save; it was undone."), to: .answer)
        changeNotSaved(reason: "The agent did not report whether the change was saved.", into: &plan)
    }
}
