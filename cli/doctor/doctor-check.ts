/** One line of `toolsteps doctor`: what was looked at and how it stands. */
export interface DoctorCheck {
  /** Short, stable name (`node`, `store`, `connections`, `proxy`, `coordination`, `database`, `plan`). */
  name: string;
  /** `fail` makes doctor exit 1; `warn` is worth a look; `ok` and `info` are fine. */
  status: 'ok' | 'info' | 'warn' | 'fail';
  summary: string;
  /** Further lines: one per file, connection or variable looked at. */
  details: string[];
}
