# Builds and installs Tocsin: the agent (tocsind), the command line (tocsin), their D-Bus,
# systemd and XDG autostart files, the desktop entry and icons notifications name, man pages
# and shell completions.
#
#   make                     release build of tocsind and tocsin, Swift runtime linked in
#   make install             install under PREFIX (default /usr/local); DESTDIR=… to stage
#   make uninstall           remove what `make install` installed (same PREFIX/DESTDIR)
#   make update-icon-cache   rewrite the hicolor theme's icon cache under PREFIX, if it keeps one
#   make install-capability  let the installed tocsind wake a suspended machine (root)
#   make deb                 the Debian package (packaging/build-deb; prints the .deb's path)
#   make clean
#
# The binaries link the Swift runtime and Foundation statically (--static-swift-stdlib), so an
# installed copy needs only system libraries (GLib, libcanberra, libstdc++, libc) and
# never the toolchain it was built with; `make` checks that with readelf.
#
# tocsind goes to BINDIR, not libexec: people start it by hand where nothing else does (README,
# `tocsin`'s "agent not reachable" message and tocsind(1) all say `tocsind &`), and it has its
# own options and --help. The D-Bus activation file, the systemd unit and the autostart entry
# all point at $(BINDIR)/tocsind.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
# systemd reads user units from /usr/local/lib/systemd/user as well as /usr/lib/systemd/user.
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
# Desktop sessions read autostart entries from $XDG_CONFIG_DIRS/autostart (/etc/xdg unless
# XDG_CONFIG_DIRS says otherwise). An install stays under its prefix all the same: a prefixed
# install that wrote into /etc would leave a file there that `make uninstall` of another
# prefix, and the Debian package's conffile handling, trip over. The package sets /etc/xdg/autostart;
# for a /usr/local install, add /usr/local/etc/xdg to XDG_CONFIG_DIRS or set XDGAUTOSTARTDIR.
XDGAUTOSTARTDIR ?= $(PREFIX)/etc/xdg/autostart
# The desktop entry notifications name (hint desktop-entry), and the hicolor icons it names.
APPLICATIONSDIR ?= $(DATADIR)/applications
ICONDIR ?= $(DATADIR)/icons
BASHCOMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
# zsh looks in /usr/local/share/zsh/site-functions; Debian packages use
# /usr/share/zsh/vendor-completions (packaging/debian/rules sets that).
ZSHCOMPLETIONDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d
# Tocsin's GNOME Shell extension (the top-bar countdown), installed for every user; each enables it.
GNOMESHELLEXTENSIONDIR ?= $(DATADIR)/gnome-shell/extensions/tocsin@tocsin.github.io
# Which build of it: 43 (GNOME Shell 43 and 44), 45 (45 and later), or auto, the installed
# shell's or the system release's (scripts/gnome-shell-extension says how it decides).
GNOME_SHELL_FLAVOUR ?= auto

# The Swift toolchain: `swift` on PATH, else the one in /opt/swift (as scripts/swift-env does).
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# A build directory of its own, so the static release build never fights over .build/release
# with `swift build -c release` (scripts/demo) and the two do not relink each other's products.
SWIFT_SCRATCH ?= .build/dist
# --disable-local-rpath: no $ORIGIN run path (nothing is installed next to the binaries).
# -z now: resolve every symbol at start-up, so the whole GOT can be made read-only (full RELRO).
# lld with -z pack-relative-relocs (DT_RELR, glibc >= 2.36): the ~74,000 relative relocations of
# the static Swift runtime shrink from 1.7 MB of .rela.dyn, which the loader reads at every start and
# which then stays resident, to 14 kB; tocsind holds 1.8 MB less (bench: agent RSS). gold, the
# toolchain's default linker, cannot write DT_RELR; ld.lld ships with the toolchain.
SWIFT_BUILD_FLAGS ?= -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
SWIFT_BUILD = $(SWIFT) build $(SWIFT_BUILD_FLAGS) --scratch-path $(SWIFT_SCRATCH)

INSTALL ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 0755
INSTALL_DATA ?= $(INSTALL) -m 0644
SETCAP ?= setcap

# Installed names, relative to DESTDIR.
installed_files = \
	$(BINDIR)/tocsind \
	$(BINDIR)/tocsin \
	$(DBUSSERVICEDIR)/io.github.tocsin.Agent.service \
	$(DBUSINTERFACEDIR)/io.github.tocsin.Alarms1.xml \
	$(DBUSINTERFACEDIR)/io.github.tocsin.LockScreen1.xml \
	$(SYSTEMDUSERUNITDIR)/tocsind.service \
	$(XDGAUTOSTARTDIR)/io.github.tocsin.Agent.desktop \
	$(APPLICATIONSDIR)/io.github.tocsin.Agent.desktop \
	$(ICONDIR)/hicolor/scalable/apps/io.github.tocsin.Agent.svg \
	$(ICONDIR)/hicolor/symbolic/apps/io.github.tocsin.Agent-symbolic.svg \
	$(ICONDIR)/hicolor/symbolic/apps/io.github.tocsin.Agent-countdown-symbolic.svg \
	$(ICONDIR)/hicolor/symbolic/apps/io.github.tocsin.Agent-paused-symbolic.svg \
	$(ICONDIR)/hicolor/symbolic/apps/io.github.tocsin.Agent-ringing-symbolic.svg \
	$(MANDIR)/man1/tocsin.1 \
	$(MANDIR)/man1/tocsind.1 \
	$(BASHCOMPLETIONDIR)/tocsin \
	$(ZSHCOMPLETIONDIR)/_tocsin \
	$(FISHCOMPLETIONDIR)/tocsin.fish \
	$(GNOMESHELLEXTENSIONDIR)/metadata.json \
	$(GNOMESHELLEXTENSIONDIR)/extension.js \
	$(GNOMESHELLEXTENSIONDIR)/stylesheet.css

# One SwiftPM process at a time on one scratch directory.
.NOTPARALLEL:
.PHONY: all build check-linkage install uninstall update-icon-cache install-capability deb clean

all: build check-linkage

build:
	$(SWIFT_BUILD) --product tocsind
	$(SWIFT_BUILD) --product tocsin

# Fails if a binary still needs a Swift runtime library or has a run path into the toolchain, or
# if tocsind links Foundation's ICU part, which would add ~10 MB to its resident memory.
check-linkage:
	@bin="$$($(SWIFT_BUILD) --show-bin-path)"; \
	for program in tocsind tocsin; do \
		dynamic="$$(readelf -d "$$bin/$$program")" || exit 1; \
		if printf '%s\n' "$$dynamic" | grep -E 'NEEDED.*\[(libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime)|RPATH|RUNPATH'; then \
			echo "$$program: links the Swift runtime dynamically or has a run path (see above)" >&2; exit 1; \
		fi; \
	done; \
	if nm "$$bin/tocsind" | grep -q -m1 -E 'FoundationInternationalization|s10Foundation|icu_[0-9]'; then \
		echo "tocsind: links Foundation's ICU part (an 'import Foundation' in TocsinCore, TocsinFiles, TocsinAgent, GLibSupport or tocsind?); it must use FoundationEssentials only" >&2; exit 1; \
	fi; \
	echo "tocsind, tocsin: only system libraries are needed; tocsind links FoundationEssentials only"

# @bindir@ in the D-Bus, systemd, autostart and desktop files becomes the installed tocsind's directory.
substitute = sed -e 's|@bindir@|$(BINDIR)|g'

install: all
	@bin="$$($(SWIFT_BUILD) --show-bin-path)"; set -ex; \
	$(INSTALL) -d $(DESTDIR)$(BINDIR); \
	$(INSTALL_PROGRAM) "$$bin/tocsind" "$$bin/tocsin" $(DESTDIR)$(BINDIR)/
	$(INSTALL) -d $(DESTDIR)$(DBUSSERVICEDIR) $(DESTDIR)$(DBUSINTERFACEDIR) $(DESTDIR)$(SYSTEMDUSERUNITDIR) \
		$(DESTDIR)$(XDGAUTOSTARTDIR) $(DESTDIR)$(APPLICATIONSDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(ICONDIR)/hicolor/scalable/apps $(DESTDIR)$(ICONDIR)/hicolor/symbolic/apps \
		$(DESTDIR)$(BASHCOMPLETIONDIR) $(DESTDIR)$(ZSHCOMPLETIONDIR) $(DESTDIR)$(FISHCOMPLETIONDIR) \
		$(DESTDIR)$(GNOMESHELLEXTENSIONDIR)
	$(substitute) dbus/io.github.tocsin.Agent.service > $(DESTDIR)$(DBUSSERVICEDIR)/io.github.tocsin.Agent.service
	$(substitute) packaging/systemd/tocsind.service > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/tocsind.service
	$(substitute) packaging/autostart/io.github.tocsin.Agent.desktop > $(DESTDIR)$(XDGAUTOSTARTDIR)/io.github.tocsin.Agent.desktop
	$(substitute) data/applications/io.github.tocsin.Agent.desktop > $(DESTDIR)$(APPLICATIONSDIR)/io.github.tocsin.Agent.desktop
	chmod 0644 $(DESTDIR)$(DBUSSERVICEDIR)/io.github.tocsin.Agent.service \
		$(DESTDIR)$(SYSTEMDUSERUNITDIR)/tocsind.service $(DESTDIR)$(XDGAUTOSTARTDIR)/io.github.tocsin.Agent.desktop \
		$(DESTDIR)$(APPLICATIONSDIR)/io.github.tocsin.Agent.desktop
	$(INSTALL_DATA) data/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg $(DESTDIR)$(ICONDIR)/hicolor/scalable/apps/
	$(INSTALL_DATA) data/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-symbolic.svg \
		data/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-countdown-symbolic.svg \
		data/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-paused-symbolic.svg \
		data/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-ringing-symbolic.svg $(DESTDIR)$(ICONDIR)/hicolor/symbolic/apps/
	$(INSTALL_DATA) dbus/io.github.tocsin.Alarms1.xml dbus/io.github.tocsin.LockScreen1.xml $(DESTDIR)$(DBUSINTERFACEDIR)/
	$(INSTALL_DATA) man/tocsin.1 man/tocsind.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL_DATA) completions/tocsin.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/tocsin
	$(INSTALL_DATA) completions/_tocsin $(DESTDIR)$(ZSHCOMPLETIONDIR)/_tocsin
	$(INSTALL_DATA) completions/tocsin.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/tocsin.fish
	scripts/gnome-shell-extension $(GNOME_SHELL_FLAVOUR) $(SWIFT_SCRATCH)/gnome-shell
	$(INSTALL_DATA) $(SWIFT_SCRATCH)/gnome-shell/tocsin@tocsin.github.io/metadata.json \
		$(SWIFT_SCRATCH)/gnome-shell/tocsin@tocsin.github.io/extension.js \
		$(SWIFT_SCRATCH)/gnome-shell/tocsin@tocsin.github.io/stylesheet.css $(DESTDIR)$(GNOMESHELLEXTENSIONDIR)/
	$(MAKE) update-icon-cache

uninstall:
	rm -f $(addprefix $(DESTDIR),$(installed_files))
	-rmdir $(DESTDIR)$(GNOMESHELLEXTENSIONDIR) 2>/dev/null
	$(MAKE) update-icon-cache

# GTK, Qt's GTK-compatible lookup and GNOME Shell read a theme's icon-theme.cache instead of its
# directories while the cache is not older than the theme's directory, and adding an icon to an
# existing symbolic/apps does not change that directory: with a cache written before, the tray
# item's state icons were not found (GNOME's top bar drew Tocsin's plain icon in every state).
# So an existing hicolor cache is rewritten when installing into the running system; none is
# made where there was none (one would hide what others install later), and a staged install
# (DESTDIR) leaves it to the package (Debian's hicolor-icon-theme trigger rewrites it).
update-icon-cache:
	@cache=$(ICONDIR)/hicolor/icon-theme.cache; \
	if [ -z "$(DESTDIR)" ] && [ -f "$$cache" ]; then \
		if command -v gtk-update-icon-cache >/dev/null; then gtk-update-icon-cache -q -t -f $(ICONDIR)/hicolor; \
		else echo "warning: $$cache may hide Tocsin's icons; run gtk-update-icon-cache -f $(ICONDIR)/hicolor" >&2; fi; \
	fi

# CAP_WAKE_ALARM lets tocsind arm a CLOCK_REALTIME_ALARM timer that wakes a suspended machine
# for the next alarm. The Debian package does this in its postinst.
install-capability:
	$(SETCAP) cap_wake_alarm+ep $(DESTDIR)$(BINDIR)/tocsind

deb:
	packaging/build-deb

clean:
	rm -rf $(SWIFT_SCRATCH)
