import FoundationEssentials
import GLibSupport
import TocsinCore

/// Asks the user whether an application may set alarms, and holds the calls waiting for the
/// answer: AlarmKit's consent, as a notification with Allow and Don't Allow.
///
/// One question per application at a time; every call waiting for that application gets the
/// answer. Closing the question without answering, or not answering within `patience`, leaves
/// the application undetermined and fails the waiting calls.
final class AuthorizationDesk {
    /// The user's answers so far.
    private(set) var authorizations: AppAuthorizations
    /// Called after an answer changed (to save it and announce it).
    var onChange: (String, AuthorizationState) -> Void = { _, _ in }
    /// Called after where an app runs was first learned or changed (to save it).
    var onNoted: () -> Void = {}

    private let presenter: AlarmNotifications
    private let log: AgentLog
    private let patience: Double
    /// The most alarms an application may hold, which the question names.
    private let alarmLimit: Int
    /// Open questions: the notification's key, and what waits for the answer.
    private var questions: [String: (notification: UUID, waiting: [(AuthorizationState) -> Void], timeout: TimeoutHandle)] = [:]

    /// A desk showing questions with `presenter`, starting from `authorizations`; apps may hold
    /// up to `alarmLimit` alarms.
    init(authorizations: AppAuthorizations, presenter: AlarmNotifications, log: AgentLog, alarmLimit: Int, patience: Double = 300) {
        self.authorizations = authorizations
        self.alarmLimit = alarmLimit
        self.presenter = presenter
        self.log = log
        self.patience = patience
    }

    /// Calls `answer` with `app`'s state: at once when known, after asking the user otherwise.
    /// `confinement` is where the app runs, which the question tells the user.
    func resolve(_ app: String, confinement: AppConfinement, answer: @escaping (AuthorizationState) -> Void) {
        let state = authorizations.state(of: app)
        guard state == .notDetermined else { return answer(state) }
        if questions[app] != nil {
            questions[app]!.waiting.append(answer)
            return
        }
        let notification = UUID()
        let timeout = MainLoop.after(seconds: patience) { [unowned self] in
            log.info("Nobody answered whether “\(app)” may set alarms.")
            close(app, answer: .notDetermined)
        }
        questions[app] = (notification, [answer], timeout)
        log.info("Asking the user whether “\(app)” (\(confinement.phrase)) may set alarms.")
        presenter.show(NotificationContentWriter.consentQuestion(app: app, confinement: confinement, alarmLimit: alarmLimit), for: notification)
    }

    /// Records where `app` runs, saving it when that is news.
    func note(_ confinement: AppConfinement, for app: String) {
        if authorizations.note(confinement, for: app) { onNoted() }
    }

    /// Handles a press on a question's button; returns false when `notification` is no question.
    func buttonPressed(_ key: String, on notification: UUID) -> Bool {
        guard let app = questions.first(where: { $0.value.notification == notification })?.key else { return false }
        set(key == NotificationContentWriter.consentAllowKey ? .authorized : .denied, for: app)
        return true
    }

    /// Handles the closing of a notification; returns false when it is no question.
    func dismissed(_ notification: UUID) -> Bool {
        guard let app = questions.first(where: { $0.value.notification == notification })?.key else { return false }
        log.info("The question whether “\(app)” may set alarms was closed without an answer.")
        close(app, answer: .notDetermined)
        return true
    }

    /// Records `state` for `app` (a button, or `tocsin auth`), answering whatever waits for it.
    func set(_ state: AuthorizationState, for app: String) {
        authorizations.set(state, for: app)
        log.info("“\(app)” is now \(state.rawValue) to set alarms.")
        onChange(app, state)
        close(app, answer: state)
    }

    private func close(_ app: String, answer: AuthorizationState) {
        guard let question = questions.removeValue(forKey: app) else { return }
        question.timeout.cancel()
        presenter.withdraw(question.notification)
        for waiting in question.waiting { waiting(answer) }
    }
}
