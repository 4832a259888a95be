// Tocsin's extension for GNOME Shell 43 and 44, which load extension.js as a script and call
// its init(). The indicator is indicator.js (see there), built in by scripts/gnome-shell-extension.
/* exported init */
'use strict';

const {Clutter, Gio, GLib, GObject, St} = imports.gi;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

// @include indicator.js

class Extension {
    enable() {
        this._indicator = new TocsinIndicator();
        Main.panel.addToStatusArea('tocsin', this._indicator);
    }

    disable() {
        this._indicator?.destroy();
        this._indicator = null;
    }
}

function init() {
    return new Extension();
}
