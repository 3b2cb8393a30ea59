import { h } from '../dom/dom.js';
import { jsonPathOf, type PathSegment } from './json-path.js';

const MAX_DEPTH = 8;
const MAX_ITEMS = 50;

/** A value to choose; its name says what choosing does and keeps the value it shows (WCAG 2.5.3). */
function leaf(
  value: unknown,
  segments: PathSegment[],
  choose: (segments: PathSegment[]) => void,
): HTMLElement {
  const path = jsonPathOf(segments);
  return h(
    'button',
    {
      type: 'button',
      part: 'value',
      className: 'value',
      title: path,
      onclick: () => choose(segments),
    },
    h('span', { className: 'visually-hidden' }, `Add variable for ${path}: `),
    value === undefined ? '(none)' : JSON.stringify(value),
  );
}

/**
 * A sample (a step's output, a trigger's event) as the tree
 * `<toolsteps-variable-mapper>` shows: nested lists of keys, every value a
 * button (part `value`) that hands `choose` its path. Deep or long samples
 * are cut (8 levels, 50 entries a level).
 */
export function sampleTree(
  value: unknown,
  choose: (segments: PathSegment[]) => void,
  segments: PathSegment[] = [],
  depth = 0,
): HTMLElement {
  if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) {
    const entries: [PathSegment, unknown][] = Array.isArray(value)
      ? value.slice(0, MAX_ITEMS).map((item, index) => [index, item])
      : Object.entries(value).slice(0, MAX_ITEMS);
    return h(
      'ul',
      null,
      entries.map(([key, child]) => {
        const path = [...segments, key];
        const isLeaf = child === null || typeof child !== 'object';
        return h(
          'li',
          null,
          h('span', { className: 'key' }, Array.isArray(value) ? `[${key}]` : String(key)),
          isLeaf ? ': ' : null,
          isLeaf ? leaf(child, path, choose) : sampleTree(child, choose, path, depth + 1),
        );
      }),
    );
  }
  return leaf(value, segments, choose);
}
