import FoundationEssentials

/// What `tocsin doctor` says of the phones: whether an unanswered alarm will ring any, from the
/// settings and what the desk's phone services (KDE Connect, GSConnect) answer. Pure, so each
/// case is tested.
public enum PhoneReadiness {
    /// One line of the report: ok or a warning, what is so, and what to do.
    public struct Report: Equatable, Sendable {
        public var isWarning: Bool
        public var message: String
        public var fix: String?
    }

    /// The report for `settings` (or why they could not be read), and the phones within reach
    /// (`PhoneReach.outcome`; the services are not asked while phones are off).
    public static func report(settings: Result<PhoneRingSettings, StoreError>, reach: PhoneReach.Outcome?) -> Report {
        let read: PhoneRingSettings
        switch settings {
        case .failure(let error):
            return Report(isWarning: true, message: "\(error.message): no phone will ring", fix: "Remove the file, or fix it; then run tocsin phone enable.")
        case .success(let settings): read = settings
        }
        guard read.isEnabled else {
            return Report(isWarning: false, message: "off (tocsin phone enable rings your paired phones when nobody answers)")
        }
        let after = "on after \(DurationFormat.spoken(read.delay)) unanswered"
        switch reach {
        case .ring(let phones)?:
            return Report(isWarning: false, message: "\(after): \(phones.map(\.name).joined(separator: ", ")) will ring")
        case .none(.noService, let reason)?:
            return Report(isWarning: true, message: "\(after), but \(reason): no phone will ring",
                          fix: "Start KDE Connect (kdeconnectd), or GSConnect on GNOME, and pair your phone.")
        case .none(.noPhone, let reason)?:
            return Report(isWarning: true, message: "\(after), but \(reason): none will ring",
                          fix: "Pair the phone in KDE Connect or GSConnect, or bring it onto the same network.")
        case nil:
            // Not asked: said as it is, never as a phone that will ring.
            return Report(isWarning: true, message: "\(after), but no phone service was asked: none will ring", fix: nil)
        }
    }
}
