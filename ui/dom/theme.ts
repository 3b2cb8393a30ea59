/**
 * The kit's look, in one place: every colour, size and radius is a CSS
 * custom property a host page can set on the element or any ancestor
 * (`toolsteps-step-form { --toolsteps-accent: #7c3aed }`), and the pieces
 * carry `part` names for `::part()` rules. The defaults meet WCAG AA
 * contrast, which the browser tests check with axe-core.
 *
 * A field that grows in a row (`.grow`) asks for 16em, so on a phone it
 * takes a line of its own instead of being cut short beside its buttons;
 * an empty status line takes no room, so sections keep even spacing.
 */
export const THEME_CSS = `
:host {
  display: block;
  font-family: var(--toolsteps-font, system-ui, -apple-system, "Segoe UI", sans-serif);
  font-size: var(--toolsteps-font-size, 14px);
  color: var(--toolsteps-text, #1f2328);
  --_accent: var(--toolsteps-accent, #1d4ed8);
  --_accent-text: var(--toolsteps-accent-text, #ffffff);
  --_surface: var(--toolsteps-surface, #ffffff);
  --_muted: var(--toolsteps-muted, #57606a);
  --_border: var(--toolsteps-border, #8c959f);
  --_danger: var(--toolsteps-danger, #b42318);
  --_ok: var(--toolsteps-success, #116329);
  --_radius: var(--toolsteps-radius, 6px);
  --_gap: var(--toolsteps-gap, 8px);
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
label, .label { display: block; font-weight: 600; margin-bottom: 4px; }
input, select, textarea, button {
  font: inherit; color: inherit; background: var(--_surface);
  border: 1px solid var(--_border); border-radius: var(--_radius); padding: 6px 8px;
}
input, select, textarea { width: 100%; }
textarea { min-height: 4em; }
button { cursor: pointer; }
button.primary { background: var(--_accent); color: var(--_accent-text); border-color: var(--_accent); }
button:disabled { cursor: not-allowed; opacity: .5; }
:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
.row { display: flex; gap: var(--_gap); align-items: end; flex-wrap: wrap; }
.row > .grow { flex: 1 1 16em; }
.field { margin-bottom: calc(var(--_gap) * 1.5); }
.field-label { display: flex; gap: 4px; }
.field-label label { margin-bottom: 4px; }
.hint { color: var(--_muted); font-size: .9em; margin: 2px 0 0; }
.problem { color: var(--_danger); font-size: .9em; margin: 4px 0 0; }
.ok { color: var(--_ok); }
.status { margin: var(--_gap) 0; }
.status:empty { margin: 0; }
.status.error { color: var(--_danger); font-weight: 600; }
.list { list-style: none; margin: 0; padding: 0; border: 1px solid var(--_border); border-radius: var(--_radius); }
.list > li { padding: 6px 8px; border-top: 1px solid var(--_border); }
.list > li:first-child { border-top: 0; }
.list > li[aria-selected="true"] { background: var(--_accent); color: var(--_accent-text); }
.list > li[aria-selected="true"] .hint { color: inherit; }
.badge { display: inline-block; padding: 0 6px; border-radius: 999px; border: 1px solid currentColor; font-size: .85em; }
.badge.destructive { color: var(--_danger); }
pre, code { font-family: var(--toolsteps-mono, ui-monospace, monospace); font-size: .9em; }
pre { background: #f6f8fa; padding: 8px; border-radius: var(--_radius); overflow: auto; max-height: 20em; }
fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); margin: 0 0 var(--_gap); }
legend { font-weight: 600; }
label.inline { display: inline; font-weight: 400; margin: 0; }
input[type="checkbox"] { width: auto; margin: 0 4px 0 0; vertical-align: middle; }
.chips { list-style: none; display: flex; flex-wrap: wrap; gap: 4px; margin: 0 0 4px; padding: 0; }
.chip { display: inline-flex; align-items: center; gap: 2px; padding: 0 0 0 8px; border-radius: 999px;
  background: var(--toolsteps-chip, #ddf4ff); border: 1px solid var(--_border); }
.chip button { border: 0; background: none; padding: 0 8px; border-radius: 999px; line-height: 1.6; }
.choices { margin: 4px 0 0; padding: 4px 0; max-height: 12em; overflow: auto; background: var(--_surface);
  border: 1px solid var(--_border); border-radius: var(--_radius); }
.choices > div { padding: 4px 8px; }
.choice { cursor: pointer; }
.choice::before { content: ''; display: inline-block; width: 1.2em; }
.choice[aria-selected="true"]::before { content: '✓'; color: var(--_accent); font-weight: 700; }
.choice:hover, .choice.active { background: var(--toolsteps-chip, #ddf4ff); }
.loading::before { content: ''; display: inline-block; width: .8em; height: .8em; margin-right: 6px;
  border: 2px solid currentColor; border-right-color: transparent; border-radius: 50%;
  animation: toolsteps-spin 1s linear infinite; vertical-align: -1px; }
@keyframes toolsteps-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .loading::before { animation: none; } }
.card { border: 1px solid var(--_border); border-left: 4px solid var(--_ok); border-radius: var(--_radius);
  padding: var(--_gap) calc(var(--_gap) * 1.5); }
.card-failed, .card-skipped { border-left-color: var(--_danger); }
.card h4 { margin: 0 0 4px; }
.card .headline { margin: 0 0 var(--_gap); font-weight: 600; }
.variables { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; margin: 0 0 var(--_gap); }
.variables dt { font-weight: 600; }
.variables dd { margin: 0; overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
