'use strict';
/**
 * Debian's Chromium (`apt-get install -y chromium`), never a downloaded build, and the flags every
 * headless run here starts it with (browser suites, player budget, Lighthouse).
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

module.exports = { CHROMIUM, CHROMIUM_FLAGS };
