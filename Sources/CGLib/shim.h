// GLib, GObject and GIO (GDBus, GSettings), with GLib's Unix extras (fd sources, signals).
#include <gio/gio.h>
#include <glib-unix.h>
