import type { Page } from 'playwright-core';

/** Every address a page's main frame committed to, in order, and how far sign-ins have read it. */
interface NavigationLog {
  readonly addresses: string[];
  /** The index after the last sign-in return that was found: the next sign-in reads from here. */
  read: number;
}

const logs = new WeakMap<Page, NavigationLog>();

/**
 * Starts logging `page`'s main-frame addresses as they are committed.
 * Why a log and not the page's address: the kit takes a sign-in's callback
 * parameters out of the address as soon as it has read them, so by the
 * time a test looks, the return may have happened and left no trace in
 * `page.url()`. The log keeps the address as it arrived.
 */
export function logNavigations(page: Page): void {
  if (logs.has(page)) return;
  const log: NavigationLog = { addresses: [], read: 0 };
  logs.set(page, log);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) log.addresses.push(frame.url());
  });
}

/**
 * The first address logged since the last sign-in return that `matches`,
 * marked read when `consume` (so the next sign-in on the same page does not
 * find this one's return), or undefined.
 */
export function loggedNavigation(
  page: Page,
  matches: (url: URL) => boolean,
  consume: boolean,
): URL | undefined {
  const log = logs.get(page);
  if (!log) throw new Error('this page was not opened through launchChromium, which logs its navigations');
  for (let at = log.read; at < log.addresses.length; at += 1) {
    const url = new URL(log.addresses[at]!);
    if (!matches(url)) continue;
    if (consume) log.read = at + 1;
    return url;
  }
  return undefined;
}
