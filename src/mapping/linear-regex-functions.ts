import { createRequire } from 'node:module';
import type { FilterFunction } from 'json-p3';
import type { RE2JS } from 're2js';
import { jsonP3 } from './json-p3.js';

/**
 * The RFC 9535 `match()` and `search()` function extensions, run on RE2JS
 * (a pure JavaScript port of RE2) instead of the engine's backtracking
 * `RegExp`. A pattern can come from the output itself (`search(@.s, $.p)`),
 * so a provider controls it as much as the mapping's author does; RE2 matches
 * in time linear in the input, so `(a+)+b` cannot stall the process the way
 * it does on a backtracking engine, where a few dozen characters hold the
 * event loop for seconds, beyond the reach of any abort signal
 * (docs/benchmarks.md, "Figures behind the code").
 */

/**
 * RE2JS is a large module that only a mapping with `match()` or
 * `search()` needs: it loads (its CommonJS build, synchronously, since filter
 * functions are synchronous) on the first pattern, not with every mapping.
 */
let re2js: typeof import('re2js').RE2JS | undefined;
const loadRe2js = () => {
  re2js ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return re2js;
};

/** Compiled patterns kept per process; a bounded map, since patterns can come from provider data. */
const compiled = new Map<string, RE2JS | null>();
const COMPILED_LIMIT = 256;
/** RE2's own limits keep compile time bounded too; this keeps a provider from making us try a megabyte of pattern. */
const PATTERN_LIMIT = 2000;

/**
 * I-Regexp (RFC 9485 §5) says `.` matches any character but a line break
 * (CR or LF); RE2's `.` excludes LF only. Everything else in I-Regexp means
 * the same in RE2 syntax.
 */
function toRe2Pattern(pattern: string): string {
  let result = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') {
      result += pattern.slice(index, index + 2);
      index++;
    } else if (inClass) {
      if (char === ']') inClass = false;
      result += char;
    } else if (char === '[') {
      inClass = true;
      result += char;
    } else result += char === '.' ? '[^\\n\\r]' : char;
  }
  return result;
}

function compile(pattern: string): RE2JS | null {
  if (compiled.has(pattern)) return compiled.get(pattern) ?? null;
  let regex: RE2JS | null = null;
  if (pattern.length <= PATTERN_LIMIT) {
    try {
      regex = loadRe2js().compile(toRe2Pattern(pattern));
    } catch {
      // RFC 9535 §2.4.6-7: a pattern that is not a valid regular expression matches nothing.
      regex = null;
    }
  }
  if (compiled.size >= COMPILED_LIMIT) compiled.clear();
  compiled.set(pattern, regex);
  return regex;
}

function regexFunction(test: (regex: RE2JS, value: string) => boolean): FilterFunction {
  const { FunctionExpressionType } = jsonP3();
  return {
    argTypes: [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType],
    returnType: FunctionExpressionType.LogicalType,
    call(value: unknown, pattern: unknown): boolean {
      if (typeof value !== 'string' || typeof pattern !== 'string') return false;
      const regex = compile(pattern);
      return regex !== null && test(regex, value);
    },
  };
}

/**
 * `match(value, pattern)`: the whole string matches (RFC 9535 §2.4.6).
 * `search(value, pattern)`: some substring matches (RFC 9535 §2.4.7).
 * Built when the JSONPath environment is, which is when json-p3 has loaded.
 */
export function linearRegexFunctions(): { match: FilterFunction; search: FilterFunction } {
  return {
    match: regexFunction((regex, value) => regex.matches(value)),
    search: regexFunction((regex, value) => regex.matcher(value).find()),
  };
}
