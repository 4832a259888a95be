import Foundation

/// The dunstrc of a session's notification server.
///
/// It keeps dunst's default behaviour where tests rely on realistic behaviour (per-urgency
/// timeouts: 10 s for low and normal, never for critical; an application's own expire timeout wins),
/// and changes only what a headless, scripted desktop needs — each change says why.
enum DunstConfig {
    static func text(actionPickerScript: URL) -> String {
        """
        [global]
            monitor = 0
            follow = none
            width = 420
            height = 200
            origin = top-right
            offset = 10x40
            # No limit: every notification is displayed at once, so `dunstctl context` offers the
            # actions of all of them (dunst only lists actions of displayed notifications).
            notification_limit = 0
            indicate_hidden = yes
            # Identical notifications would otherwise be merged, and a test would see one close
            # that it never closed.
            stack_duplicates = false
            hide_duplicate_count = false
            # Xvfb never gets user input, so the "user" is always idle; with an idle threshold dunst
            # would stop expiring notifications after that long.
            idle_threshold = 0
            show_age_threshold = -1
            sticky_history = yes
            history_length = 50
            progress_bar = true
            # The session's context-menu picker instead of a real dmenu (see ActionClicker).
            dmenu = \(actionPickerScript.path)
            font = DejaVu Sans 10
            # No icon theme is installed in a test session; icons would only produce warnings.
            icon_position = off
            format = "<b>%s</b>\\n%b"
            mouse_left_click = close_current
            mouse_middle_click = do_action, close_current
            mouse_right_click = close_all

        [urgency_low]
            timeout = 10

        [urgency_normal]
            timeout = 10

        [urgency_critical]
            timeout = 0

        """
    }
}
