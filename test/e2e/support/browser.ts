// Headless Chromium for the browser tests (the system's /usr/bin/chromium through playwright-core).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterEach } from 'vitest';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const publicUrl = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
export const artifactsDir = path.join(repoRoot, 'test-artifacts');

/** The flags every headless Chromium of the project runs with (no sandbox as root, no network of its own). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
  watchContentSecurityPolicy(browser);
  return browser;
}

// ---------- Content-Security-Policy violations fail the test ----------
// The app must run under the gateway's policy (ADR 0019). Every page of every context the browser
// opens (browser.newPage makes a context too) reports `securitypolicyviolation` events, from every
// frame, and Chromium's console lines about a refused load; the test that caused one fails after it.

const cspViolations: string[] = [];

/** The CSP violations seen since the last test ended (for a test that expects one, e.g. a probe). */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

const cspConsoleLine = /Content Security Policy|Content-Security-Policy/i;

async function watchContext(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__tuberCspViolation', ({ frame }, violation: string) => {
    cspViolations.push(`${violation} (in ${frame.url()})`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __tuberCspViolation?: (violation: string) => void }).__tuberCspViolation;
      report?.(
        `${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} at ${event.sourceFile || event.documentURI}:${event.lineNumber}`,
      );
    });
  });
  const watchPage = (page: Page) =>
    page.on('console', (message) => {
      if (cspConsoleLine.test(message.text())) cspViolations.push(`console: ${message.text()} (in ${page.url()})`);
    });
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
}

function watchContentSecurityPolicy(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    await watchContext(context);
    return context;
  };
}

// Registered by every test file that imports this module (each file gets its own module instance).
afterEach(() => {
  const seen = takeCspViolations();
  if (seen.length > 0) {
    throw new Error(`the page broke the gateway's Content-Security-Policy (${seen.length} reports):\n${[...new Set(seen)].join('\n')}`);
  }
});

/** Saves a full-page screenshot to test-artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Collects console errors and uncaught exceptions of a page, for assertions and failure messages. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}
