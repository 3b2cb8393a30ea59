/** A sub-row of microseconds of CPU, ours against the baseline's, with their ratio and no goal of its own. */
export function cpuRow(row, figure, oursUs, baselineUs) {
  row(
    figure,
    `${oursUs.toFixed(0)} us`,
    `${baselineUs.toFixed(0)} us`,
    `${(oursUs / baselineUs).toFixed(2)}x`,
    '',
  );
}
