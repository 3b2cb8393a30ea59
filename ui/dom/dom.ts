/**
 * The one way the kit makes DOM: `h('button', { part: 'action', onclick }, 'Test step')`.
 * Plain custom elements need no template engine for forms this size, and
 * building nodes (never HTML strings) means a provider's text is never parsed
 * as markup: a ticket subject of `<img onerror=...>` stays text.
 */
type Child = Node | string | number | false | null | undefined;
export type Props = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value as EventListener);
    } else if (name in element && !name.includes('-') && name !== 'list' && name !== 'part') {
      (element as unknown as Record<string, unknown>)[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `parent` shows with `children`. */
export function render(parent: Node, ...children: (Child | Child[])[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

let nextId = 0;
/** An id unique in the document, to tie a label or a description to its control. */
export const uniqueId = (prefix: string) => `${prefix}-${++nextId}`;
