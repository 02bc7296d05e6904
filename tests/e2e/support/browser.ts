import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../harness/chromium';
import { watchBrowser } from './console';

const hasChromium = (): boolean => fs.existsSync(CHROMIUM);

/**
 * Debian's Chromium, headless; `autoplay` lets media start without a user gesture (the player
 * suites). Every page it opens is watched: a console error fails the test (./console.ts).
 */
export const launchBrowser = async ({ autoplay = true }: { autoplay?: boolean } = {}): Promise<Browser> =>
  watchBrowser(
    await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_FLAGS, ...(autoplay ? ['--autoplay-policy=no-user-gesture-required'] : [])],
    }),
  );

/** `describe` when Chromium is installed, otherwise a skipped block that says why. */
export const describeBrowser: jest.Describe = hasChromium()
  ? describe
  : (((name: string, fn: () => void) => describe.skip(`${name} (no Chromium at ${CHROMIUM}: apt-get install -y chromium)`, fn)) as jest.Describe);
