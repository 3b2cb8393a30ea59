import { h, render, uniqueId } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';
import { jsonPathOf, type PathSegment, variableNameFor } from '../views/json-path.js';
import { sampleTree } from '../views/sample-tree.js';

/**
 * `<toolsteps-variable-mapper>`: a step's sample output (or a trigger's
 * sample event) as a tree; clicking a value adds a variable holding its
 * JSONPath, or, once a variable's JSONPath box has had the focus, points
 * that variable at it (until a value is chosen or Escape is pressed, so a
 * keyboard user can move back through the rows to the tree). The default mapping is shown as rows to rename,
 * re-point or remove, and more can be added by hand.
 *
 * Properties: `sample` (the JSON to show), `defaults` (name to JSONPath:
 * setting it resets the mapping to it), `mapping` (the current mapping).
 * Attribute `label`: what the tree is of ("Sample output" by default).
 * Events: `toolsteps-change` ({ mapping }).
 * Parts: `tree`, `value`, `mapping`, `name`, `path`, `remove`, `add`.
 */
export class ToolstepsVariableMapper extends ToolstepsElement {
  static readonly tag = 'toolsteps-variable-mapper';
  #sample: unknown;
  #rows: { name: string; path: string }[] = [];
  #tree!: HTMLElement;
  #table!: HTMLTableSectionElement;
  #treeHeading!: HTMLElement;
  /** The row whose JSONPath box had the focus last: a value chosen next fills it. */
  #pathRow: number | undefined;

  get sample(): unknown {
    return this.#sample;
  }

  set sample(sample: unknown) {
    this.#sample = sample;
    if (this.#tree) this.#showTree();
  }

  set defaults(mapping: Record<string, string>) {
    this.mapping = mapping;
  }

  /** Variable name to JSONPath; rows without a name or a path are left out. */
  get mapping(): Record<string, string> {
    return Object.fromEntries(
      this.#rows
        .filter((row) => row.name.trim() && row.path.trim())
        .map((row) => [row.name.trim(), row.path.trim()]),
    );
  }

  set mapping(mapping: Record<string, string>) {
    this.#rows = Object.entries(mapping).map(([name, path]) => ({ name, path }));
    // A line about the rows just replaced ("Mapped ticket_id to ...") would read as about these.
    this.say('');
    if (this.#table) this.#showRows();
  }

  protected override setup(): void {
    this.#treeHeading = h('h4', { id: uniqueId('tree') }, this.getAttribute('label') ?? 'Sample output');
    this.#tree = h('div', { part: 'tree', className: 'tree' });
    this.#table = h('tbody');
    const hint = 'Choose a value to add a variable with its JSONPath.';
    render(
      this.body,
      h(
        'section',
        { 'aria-labelledby': this.#treeHeading.id },
        this.#treeHeading,
        h('p', { className: 'hint' }, hint),
        this.#tree,
      ),
      h(
        'section',
        { 'aria-label': 'Variables' },
        h('h4', null, 'Variables'),
        h(
          'table',
          { part: 'mapping' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { scope: 'col' }, 'Variable'),
              h('th', { scope: 'col' }, 'JSONPath'),
              h('th', { scope: 'col' }, h('span', { className: 'visually-hidden' }, 'Actions')),
            ),
          ),
          this.#table,
        ),
        h('button', { type: 'button', part: 'add', onclick: () => this.#add('', '$.') }, 'Add variable'),
      ),
    );
    this.#showTree();
    this.#showRows();
    // The JSONPath box focused last stays the target while a keyboard user tabs (or shift-tabs past
    // the row's name box) on the way to the tree; another path box takes it over, Escape ends it.
    this.root.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Escape') this.#pathRow = undefined;
    });
  }

  #showTree(): void {
    render(
      this.#tree,
      this.#sample === undefined
        ? h('p', null, 'No sample yet.')
        : sampleTree(this.#sample, (segments) => this.#choose(segments)),
    );
  }

  /** A value chosen: fills the row whose JSONPath box was focused last, or adds a variable. */
  #choose(segments: PathSegment[]): void {
    const path = jsonPathOf(segments);
    const row = this.#pathRow === undefined ? undefined : this.#rows[this.#pathRow];
    this.#pathRow = undefined;
    if (!row) {
      this.#add(variableNameFor(segments), path);
      return;
    }
    row.path = path;
    if (!row.name.trim()) row.name = variableNameFor(segments);
    this.#showRows();
    this.say(`Mapped ${row.name} to ${path}.`);
    this.#changed();
  }

  /** Adds a variable for `path`, or points at the one that already holds it. */
  #add(name: string, path: string): void {
    const existing = path !== '$.' ? this.#rows.findIndex((row) => row.path === path) : -1;
    if (existing >= 0) {
      this.say(`${path} is already mapped as ${this.#rows[existing]!.name}.`);
      this.#focusRow(existing);
      return;
    }
    const taken = new Set(this.#rows.map((row) => row.name));
    let unique = name;
    for (let n = 2; name && taken.has(unique); n += 1) unique = `${name}_${n}`;
    this.#rows.push({ name: unique, path });
    this.#showRows();
    this.say(name ? `Added variable ${unique} for ${path}.` : 'Added a variable row.');
    this.#focusRow(this.#rows.length - 1);
    this.#changed();
  }

  #focusRow(index: number): void {
    this.#table.querySelectorAll<HTMLInputElement>('input[data-kind="name"]')[index]?.focus();
  }

  #showRows(): void {
    render(
      this.#table,
      this.#rows.map((row, index) => {
        const input = (kind: 'name' | 'path', label: string) =>
          h('input', {
            value: row[kind],
            part: kind,
            'data-kind': kind,
            'aria-label': label,
            autocomplete: 'off',
            spellcheck: false,
            onfocus: () => {
              if (kind === 'path') this.#pathRow = index;
            },
            oninput: (event: Event) => {
              row[kind] = (event.target as HTMLInputElement).value;
              this.#changed();
            },
          });
        return h(
          'tr',
          null,
          h('td', null, input('name', `Variable ${index + 1} name`)),
          h(
            'td',
            null,
            input('path', row.name ? `JSONPath for ${row.name}` : `Variable ${index + 1} JSONPath`),
          ),
          h(
            'td',
            null,
            h(
              'button',
              {
                type: 'button',
                part: 'remove',
                'aria-label': `Remove variable ${row.name || index + 1}`,
                onclick: () => {
                  this.#rows.splice(index, 1);
                  // Rows after it move up: the remembered box is no longer the one it was.
                  this.#pathRow = undefined;
                  this.#showRows();
                  this.#changed();
                },
              },
              'Remove',
            ),
          ),
        );
      }),
    );
  }

  #changed(): void {
    this.emit('toolsteps-change', { mapping: this.mapping });
  }

  protected override styles(): string {
    // The Remove column is as narrow as its button (width 1%), so the inputs, not a gap, fill the row.
    return `
      h4 { margin: var(--_gap) 0 4px; }
      .tree ul { list-style: none; margin: 0; padding-left: 1.2em; }
      .tree > ul { padding-left: 0; }
      .key { color: var(--_muted); }
      button.value { border: 1px dashed var(--_border); padding: 0 4px; font-family: var(--toolsteps-mono, ui-monospace, monospace); font-size: .9em;
        text-align: left; overflow-wrap: anywhere; max-width: 100%; }
      td input { min-width: 0; }
      table { border-collapse: collapse; width: 100%; margin-bottom: var(--_gap); }
      th { text-align: left; font-weight: 600; }
      td { padding: 2px 4px 2px 0; }
      td:last-child { width: 1%; padding-right: 0; }
    `;
  }
}
