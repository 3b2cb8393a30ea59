import { HTML_REPORT_STYLE } from './html-report-style.js';
import type { RecordedCall } from './recorded-call.js';
import type { EvalReport, RunResult, ScenarioResult } from './scenario-result.js';

const escapeHtml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A value as readable JSON, cut so one huge output cannot swamp the page. */
function json(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return escapeHtml(text.length > 4000 ? `${text.slice(0, 4000)}\n... (cut)` : text);
}

function outcomeText(call: RecordedCall): string {
  const timing = `${call.durationMs} ms`;
  if (!call.ok) return `${call.error?.code ?? 'error'} · ${timing}`;
  const extras = [
    call.retries ? `${call.retries} retr${call.retries === 1 ? 'y' : 'ies'}` : '',
    call.recovered ? 'recovered' : '',
    call.credits ? `${call.credits} cr` : '',
  ].filter(Boolean);
  return ['ok', ...extras, timing].join(' · ');
}

/** One call on the run's timeline: a bar placed by its start and length in the run, the faults armed before it, and its details. */
function callItem(call: RecordedCall, span: number): string {
  const left = (call.startedMs / span) * 100;
  const width = Math.max((call.durationMs / span) * 100, 0.5);
  const classes = ['call', call.ok ? 'ok' : 'error', call.access].join(' ');
  const faults = call.faults
    .map(
      (fault) =>
        `<div class="fault" data-fault="${escapeHtml(fault.kind)}">fault armed: ${escapeHtml(fault.kind)} on ${escapeHtml(fault.twin)}</div>`,
    )
    .join('');
  const detail = call.ok ? `<pre>${json(call.output)}</pre>` : `<pre>${json(call.error)}</pre>`;
  return `<li class="${classes}" data-index="${call.index}" data-step="${escapeHtml(call.step)}" data-outcome="${call.ok ? 'ok' : escapeHtml(call.error?.code ?? 'error')}">
${faults}<span class="index">${call.index}</span><span class="step">${escapeHtml(call.step)}</span>
<span class="lane"><span class="bar" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%"></span></span>
<span class="outcome">${escapeHtml(outcomeText(call))}</span>
<details><summary>input and ${call.ok ? 'output' : 'error'}</summary><pre>${json(call.input)}</pre>${detail}</details></li>`;
}

function runSection(run: RunResult): string {
  const span = Math.max(1, ...run.calls.map((call) => call.startedMs + call.durationMs));
  const checks = run.checks
    .map(
      (check) =>
        `<li class="${check.passed ? 'pass' : 'fail'}" data-check="${escapeHtml(check.kind)}">${escapeHtml(check.name)} <span class="reason">- ${escapeHtml(check.reason)}</span></li>`,
    )
    .join('\n');
  const calls = run.calls.length
    ? `<ol class="timeline" aria-label="trajectory of run ${run.run}">${run.calls.map((call) => callItem(call, span)).join('\n')}</ol>`
    : '<p class="empty">No tool calls.</p>';
  const answer = run.answer ? `<p class="task">Agent: ${escapeHtml(run.answer)}</p>` : '';
  return `<section class="run" data-run="${run.run}" data-passed="${run.passed}">
<h3>Run ${run.run}: <span class="badge ${run.passed ? 'pass' : 'fail'}">${run.passed ? 'passed' : 'failed'}</span> · ${run.calls.length} call(s) · ${run.durationMs} ms</h3>
<ul class="checks">${checks}</ul>${calls}${answer}</section>`;
}

function scenarioSection(scenario: ScenarioResult): string {
  const rate = `${Math.round(scenario.passRate * 100)}% of ${scenario.runs.length} run(s) passed (needs ${Math.round(scenario.requiredPassRate * 100)}%)`;
  return `<article class="scenario" data-scenario="${escapeHtml(scenario.scenario)}" data-passed="${scenario.passed}">
<header><h2>${escapeHtml(scenario.scenario)}</h2><span class="badge ${scenario.passed ? 'pass' : 'fail'}">${scenario.passed ? 'PASS' : 'FAIL'}</span><span>${escapeHtml(rate)}</span><span>agent: ${escapeHtml(scenario.agent)}</span></header>
<p class="task">${escapeHtml(scenario.task)}</p>
${scenario.runs.map(runSection).join('\n')}</article>`;
}

/**
 * The report as one self-contained HTML page: each scenario's verdict, every
 * check with its reason, and each run's trajectory as a timeline. No script,
 * no external asset: the policy forbids loading anything, so the page can be
 * opened from a CI artifact as it is.
 */
export function htmlReport(report: EvalReport): string {
  const passed = report.scenarios.filter((scenario) => scenario.passed).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolsteps eval: ${passed}/${report.scenarios.length} passed</title><style>${HTML_REPORT_STYLE}</style></head>
<body><h1>toolsteps eval</h1>
<p class="summary">${passed} of ${report.scenarios.length} scenario(s) passed · started ${escapeHtml(report.startedAt)} · ${report.durationMs} ms</p>
${report.scenarios.map(scenarioSection).join('\n')}
</body></html>
`;
}
