import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); never a downloaded build. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const hasChromium = (): boolean => fs.existsSync(CHROMIUM);

/** Debian's Chromium, headless; `autoplay` lets media start without a user gesture (the player suites). */
export const launchBrowser = ({ autoplay = true }: { autoplay?: boolean } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(autoplay ? ['--autoplay-policy=no-user-gesture-required'] : []),
    ],
  });

/** `describe` when Chromium is installed, otherwise a skipped block that says why. */
export const describeBrowser: jest.Describe = hasChromium()
  ? describe
  : (((name: string, fn: () => void) => describe.skip(`${name} (no Chromium at ${CHROMIUM}: apt-get install -y chromium)`, fn)) as jest.Describe);
