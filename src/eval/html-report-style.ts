/** The HTML report's one stylesheet, inline: the page loads nothing from anywhere. */
export const HTML_REPORT_STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1b1f24; background: #f6f7f9; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
.summary { color: #4a5361; margin: 0 0 24px; }
.scenario { background: #fff; border: 1px solid #d8dde3; border-radius: 8px; padding: 16px 20px; margin-bottom: 20px; }
.scenario > header { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.scenario h2 { font-size: 1.15rem; margin: 0; }
.badge { font-weight: 600; border-radius: 999px; padding: 2px 10px; font-size: .85rem; }
.badge.pass { background: #dcf5e3; color: #0d6b2c; }
.badge.fail { background: #fde2e1; color: #a1160f; }
.task { color: #4a5361; margin: 8px 0 12px; }
.run { border-top: 1px solid #e8ebef; padding-top: 12px; margin-top: 12px; }
.run h3 { font-size: 1rem; margin: 0 0 8px; }
.checks { list-style: none; padding: 0; margin: 0 0 12px; }
.checks li { padding: 2px 0; }
.checks li.pass::before { content: "\\2713  "; color: #0d6b2c; font-weight: 700; }
.checks li.fail::before { content: "\\2717  "; color: #a1160f; font-weight: 700; }
.checks .reason { color: #4a5361; }
.timeline { list-style: none; padding: 0; margin: 0; }
.call { display: grid; grid-template-columns: 2.2rem 17rem 1fr 7rem; gap: 8px; align-items: center; padding: 3px 0; }
.call .index { color: #6b7480; text-align: right; font-variant-numeric: tabular-nums; }
.call .step { font-family: ui-monospace, monospace; font-size: .88rem; overflow-wrap: anywhere; }
.call .lane { position: relative; height: 14px; background: #eef1f4; border-radius: 3px; }
.call .bar { position: absolute; top: 0; bottom: 0; min-width: 3px; border-radius: 3px; background: #3a78d8; }
.call.error .bar { background: #d8463a; }
.call.destructive .step { color: #a1160f; font-weight: 600; }
.call .outcome { font-size: .85rem; color: #4a5361; }
.call.error .outcome { color: #a1160f; }
.fault { grid-column: 2 / 5; font-size: .82rem; color: #8a5a00; background: #fff4d6; border-radius: 4px; padding: 2px 8px; }
details { grid-column: 2 / 5; font-size: .82rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f5f7; padding: 8px; border-radius: 4px; margin: 4px 0; }
.empty { color: #6b7480; font-style: italic; }
`;
