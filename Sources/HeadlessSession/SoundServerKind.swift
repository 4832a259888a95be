/// The sound servers a session can run (`HeadlessSession(soundServer:)`). Either way the session
/// has one null sink, `tocsin_null`, as its default sink, and a PulseAudio protocol socket in
/// PULSE_SERVER, so pactl, parec, paplay and libpulse programs (Tocsin among them) work the same.
public enum SoundServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PulseAudio 16.1 with only the null sink loaded (`pulseaudio -n`).
    case pulseAudio = "pulseaudio"
    /// PipeWire 0.3.65 with WirePlumber 0.4.13 (which picks the default sink and remembers
    /// volumes and mutes in `$XDG_STATE_HOME/wireplumber/`) and pipewire-pulse (the PulseAudio
    /// protocol server), as a Debian 12 desktop runs them; the null sink is loaded through pactl.
    case pipeWire = "pipewire"

    /// The name test output shows, e.g. in a parameterized test's arguments.
    public var description: String { rawValue }
}
