import FoundationEssentials

/// What `tocsin doctor` says of the panel: whether a panel shows Tocsin's tray item, from what
/// the agent knows of its hosts. A panel is optional: countdowns always show as notifications.
public enum PanelReadiness {
    /// Who shows the agent's tray item, as the agent's status says (`panel`).
    public enum Host: String, Sendable, CaseIterable {
        /// A StatusNotifierWatcher: Plasma's, xfce4-panel's or waybar's tray.
        case tray
        /// Tocsin's own GNOME Shell extension, in GNOME's top bar.
        case gnomeExtension = "gnome-extension"
        /// No panel shows it.
        case none
        /// The agent runs with `--no-tray`.
        case off
    }

    /// The report for `host`.
    public static func report(_ host: Host) -> ReadinessReport {
        switch host {
        case .tray:
            return ReadinessReport(.ok, "the panel's tray shows what counts down, is paused or rings")
        case .gnomeExtension:
            return ReadinessReport(.ok, "GNOME Shell's top bar shows what counts down, is paused or rings (Tocsin's extension)")
        case .off:
            return ReadinessReport(.ok, "off (tocsind --no-tray): countdowns show in their notifications")
        case .none:
            return ReadinessReport(.optional, "no panel shows Tocsin's tray item: countdowns show in their notifications only",
                                   fix: "On GNOME: gnome-extensions enable tocsin@tocsin.github.io. Elsewhere a panel with a tray (Plasma, xfce4-panel, waybar's tray) shows it, or a bar runs tocsin watch --format waybar.")
        }
    }
}
