// GLib, GObject and GIO (GDBus, GSettings), with GLib's Unix extras (fd sources, signals).
#include <gio/gio.h>
#include <glib-unix.h>
// GDesktopAppInfo: desktop entries found as desktops find them (gio-unix).
#include <gio/gdesktopappinfo.h>
