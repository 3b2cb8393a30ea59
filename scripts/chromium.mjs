/**
 * Debian's Chromium (browsers cannot be downloaded here; .ci/run installs the
 * apt package when missing) and the flags that work on this closed network
 * (no background networking, no component updates, no QUIC): one place for
 * the browser tests (test/ui/support/chromium.ts) and the bench's first-render row.
 */
export const CHROMIUM = process.env.TOOLSTEPS_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
