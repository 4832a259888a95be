import Foundation
import TocsinCore

/// Sends a request the CLI has checked with the same rules as the agent, so a bad combination
/// is a usage error before anything reaches the agent.
enum RequestSender {
    /// Checks `request` at `now` in `context`'s zone, schedules it and prints the id; returns the alarm as the agent
    /// keeps it, so the times the command prints are the agent's own (a timer's end, worked out
    /// here, could fall a moment earlier than the agent's and on the minute before: "rings at
    /// 21:48" beside a notification's "ends 21:49"). Only if the agent no longer has it (gone
    /// already) is it the alarm as worked out here.
    static func schedule(_ request: AlarmRequest, now: Date, command: String, in context: CommandContext) throws(CommandError) -> Alarm {
        let alarm: Alarm
        do {
            alarm = try request.makeAlarm(id: UUID(), now: now, timeZone: context.timeZone)
        } catch {
            throw .usage(error.message, command: command)
        }
        let client: any AgentClient
        let id: UUID
        do {
            client = try context.connect()
            id = try client.schedule(request)
        } catch {
            throw CommandError(error)
        }
        context.output.result(id.uuidString.lowercased())
        return (try? client.alarm(id)) ?? alarm
    }
}
