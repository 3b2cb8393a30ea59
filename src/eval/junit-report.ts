import type { EvalReport } from './scenario-result.js';

const escapeXml = (text: string) =>
  text
    .replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * The report as JUnit XML, the format CI dashboards read: a test suite per
 * scenario, a test case per run, and each failed check's reason in the
 * case's failure message.
 */
export function junitReport(report: EvalReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const runs = report.scenarios.flatMap((scenario) => scenario.runs);
  const failures = runs.filter((run) => !run.passed).length;
  lines.push(
    `<testsuites name="toolsteps eval" tests="${runs.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
  );
  for (const scenario of report.scenarios) {
    const failed = scenario.runs.filter((run) => !run.passed).length;
    const time = scenario.runs.reduce((sum, run) => sum + run.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${escapeXml(scenario.scenario)}" tests="${scenario.runs.length}" failures="${failed}" time="${time.toFixed(3)}">`,
      `    <properties><property name="agent" value="${escapeXml(scenario.agent)}"/><property name="pass_rate" value="${scenario.passRate}"/><property name="required_pass_rate" value="${scenario.requiredPassRate}"/></properties>`,
    );
    for (const run of scenario.runs) {
      const name = `${scenario.scenario} run ${run.run}`;
      const open = `    <testcase classname="${escapeXml(scenario.scenario)}" name="${escapeXml(name)}" time="${(run.durationMs / 1000).toFixed(3)}"`;
      const failedChecks = run.checks.filter((check) => !check.passed);
      if (!failedChecks.length) {
        lines.push(`${open}/>`);
        continue;
      }
      const message = failedChecks.map((check) => `${check.name}: ${check.reason}`).join('; ');
      const calls = run.calls
        .map((call) => `${call.index}. ${call.step} ${call.ok ? 'ok' : `error ${call.error?.code}`}`)
        .join('\n');
      lines.push(
        `${open}>`,
        `      <failure message="${escapeXml(message)}" type="check_failed">${escapeXml(`${message}\n\nTrajectory:\n${calls}`)}</failure>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
