// Tocsin's extension for GNOME Shell 43 and 44, which load extension.js as a script and call
// its init(). The indicator is indicator.js (see there), built in by scripts/gnome-shell-extension.
/* exported init */
'use strict';

const {Clutter, Gio, GLib, GObject, St} = imports.gi;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

// @include indicator.js
// @include lockscreen.js

class Extension {
    enable() {
        this._indicator = new TocsinIndicator();
        Main.panel.addToStatusArea('tocsin', this._indicator);
        this._lockScreen = new TocsinLockScreen();
    }

    // Tocsin runs in the "unlock-dialog" session mode too (metadata.json): a wake-up alarm
    // rings on a screen that locked hours ago, and the person it wakes must see which alarm it
    // is and stop or snooze it there without unlocking, half awake — the lock screen's list
    // (lockscreen.js) is drawn there and only there, and wakes the blanked screen while it
    // rings. The top-bar item hides itself while locked (indicator.js says why). Nothing
    // listens to the keyboard on the lock screen. Disabled whole, in every mode.
    disable() {
        this._lockScreen?.destroy();
        this._lockScreen = null;
        this._indicator?.destroy();
        this._indicator = null;
    }
}

function init() {
    return new Extension();
}
