import FoundationEssentials

/// What `tocsin doctor` says of the phones: whether an unanswered alarm will ring any, from the
/// settings and what the desk's phone services (KDE Connect, GSConnect) answer. Pure, so each
/// case is tested.
public enum PhoneReadiness {
    /// The report for `settings` (or why they could not be read), and the phones within reach
    /// (`PhoneReach.outcome`, or `nil` when the services were not asked). With phones off, a
    /// missing phone link is an optional part, not a fault.
    public static func report(settings: Result<PhoneRingSettings, StoreError>, reach: PhoneReach.Outcome?) -> ReadinessReport {
        let read: PhoneRingSettings
        switch settings {
        case .failure(let error):
            return ReadinessReport(.warning, "\(error.message): no phone will ring", fix: "Remove the file, or fix it; then run tocsin phone enable.")
        case .success(let settings): read = settings
        }
        guard read.isEnabled else {
            let off = "off (tocsin phone enable rings your paired phones when nobody answers)"
            switch reach {
            case .none(.noService, _)?:
                return ReadinessReport(.optional, "off, and neither KDE Connect nor GSConnect runs here",
                                       fix: "To have unanswered alarms ring your phone: install KDE Connect (or GSConnect on GNOME), pair the phone, then tocsin phone enable.")
            case .none(.noPhone, let reason)?:
                return ReadinessReport(.optional, "off, and \(reason)",
                                       fix: "To have unanswered alarms ring your phone: pair it in KDE Connect or GSConnect, then tocsin phone enable.")
            case .ring?, nil:
                return ReadinessReport(.ok, off)
            }
        }
        let after = "on after \(DurationFormat.spoken(read.delay)) unanswered"
        switch reach {
        case .ring(let phones)?:
            return ReadinessReport(.ok, "\(after): \(phones.map(\.name).joined(separator: ", ")) will ring")
        case .none(.noService, let reason)?:
            return ReadinessReport(.warning, "\(after), but \(reason): no phone will ring",
                                   fix: "Start KDE Connect (kdeconnectd), or GSConnect on GNOME, and pair your phone.")
        case .none(.noPhone, let reason)?:
            return ReadinessReport(.warning, "\(after), but \(reason): none will ring",
                                   fix: "Pair the phone in KDE Connect or GSConnect, or bring it onto the same network.")
        case nil:
            // Not asked: said as it is, never as a phone that will ring.
            return ReadinessReport(.warning, "\(after), but no phone service was asked: none will ring")
        }
    }
}
