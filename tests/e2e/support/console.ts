import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/**
 * Every page the browser suites open is watched: a console error, an uncaught exception or a
 * Content-Security-Policy violation fails the test it happened in, unless that test declared it
 * expected with `expectConsoleErrors` and a reason.
 */

interface Expected {
  pattern: RegExp;
  reason: string;
}

/** Declared in setup, or for life: for the page's or context's whole life. */
const lasting = new WeakMap<Page | BrowserContext, Expected[]>();
/** Declared inside a test: for that test (and what arrives after it, until the next one starts). */
let forThisTest: Array<Expected & { target: Page | BrowserContext }> = [];
/** What the browser reported since the last check, each with the test it happened in. */
let reported: string[] = [];

const currentTestName = (): string | undefined => (typeof expect === 'function' ? expect.getState().currentTestName : undefined);

/**
 * Declares errors this page (or every page of this context) is meant to log, e.g. the browser's
 * 'Failed to load resource … 401' of a deliberately wrong password; matched against the message
 * and its source URL. Inside a test it holds for that test, in setup for the page's life.
 */
export const expectConsoleErrors = (target: Page | BrowserContext, pattern: RegExp, reason: string): void => {
  if (!reason.trim()) throw new Error('expectConsoleErrors needs the reason the error is expected');
  if (currentTestName() !== undefined) forThisTest.push({ target, pattern, reason });
  else expectConsoleErrorsForLife(target, pattern, reason);
};

/** The same, for the page's or context's whole life wherever it is declared. */
export const expectConsoleErrorsForLife = (target: Page | BrowserContext, pattern: RegExp, reason: string): void => {
  if (!reason.trim()) throw new Error('expectConsoleErrorsForLife needs the reason the error is expected');
  lasting.set(target, [...(lasting.get(target) ?? []), { pattern, reason }]);
};

/** The browser's line for a request answered with `status`, to a path starting with `path`. */
export const failedRequest = (status: number, path: string): RegExp =>
  new RegExp(`status of ${status}\\b.*\\(https?://[^/]+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

const isExpected = (page: Page | null, text: string): boolean => {
  if (page === null) return false;
  const targets = [page, page.context()];
  return [...targets.flatMap((t) => lasting.get(t) ?? []), ...forThisTest.filter((e) => targets.includes(e.target))].some((e) => e.pattern.test(text));
};

const record = (page: Page | null, text: string): void => {
  if (isExpected(page, text)) return;
  const where = page && !page.isClosed() ? ` on ${page.url()}` : '';
  reported.push(`[${currentTestName() ?? 'outside a test'}] ${text}${where}`);
};

const BINDING = '__branchifyCspViolation';

const watchPage = (page: Page): void => {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const { url, lineNumber } = msg.location();
    record(page, `console error: ${msg.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => record(page, `uncaught ${error.name}: ${error.message}`));
};

/** Watches every page of the context, popups included, and reports CSP violations of every frame. */
const watchContext = async (context: BrowserContext): Promise<void> => {
  await context.exposeBinding(BINDING, ({ page }, text: string) => record(page, text));
  await context.addInitScript((binding: string) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as Record<string, (text: string) => void>)[binding];
      report?.(
        `CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || 'an inline resource'}` +
          `${e.sourceFile ? ` (${e.sourceFile}:${e.lineNumber})` : ''}${e.sample ? ` sample: ${e.sample}` : ''}`,
      );
    });
  }, BINDING);
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
};

/** The browser with every context it creates (browser.newPage included) watched. */
export const watchBrowser = (browser: Browser): Browser => {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options?: BrowserContextOptions): Promise<BrowserContext> => {
    const context = await newContext(options);
    await watchContext(context);
    return context;
  };
  return browser;
};

/** Fails with everything reported since the last check that no test declared expected. */
const checkConsole = (): void => {
  const found = reported;
  reported = [];
  if (found.length === 0) return;
  throw new Error(
    `the browser reported ${found.length} unexpected error(s):\n${found.join('\n')}\n` +
      'Fix the cause, or declare an intended one with expectConsoleErrors(page, pattern, reason).',
  );
};

// Registered in every test file that opens a browser through the support modules.
if (typeof afterEach === 'function') {
  beforeEach(() => {
    forThisTest = [];
  });
  afterEach(checkConsole);
  afterAll(checkConsole);
}
