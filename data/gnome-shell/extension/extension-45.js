// Tocsin's extension for GNOME Shell 45 and later, which load extension.js as an ES module and
// take its default export. The indicator is indicator.js (see there), built in by
// scripts/gnome-shell-extension.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import St from 'gi://St';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

// @include indicator.js
// @include lockscreen.js

export default class TocsinExtension extends Extension {
    enable() {
        this._indicator = new TocsinIndicator();
        Main.panel.addToStatusArea(this.uuid, this._indicator);
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
