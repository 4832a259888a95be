// libpulse: the agent reads and sets the output's mute and volume, on its own GLib main loop, so
// that a ringing alarm is heard on a muted or turned-down machine (PulseAudio, and PipeWire
// through pipewire-pulse).
#include <pulse/pulseaudio.h>
#include <pulse/glib-mainloop.h>
