/**
 * What changed between two JSON Schemas of one step's input or output, as
 * far as a saved configuration can tell: the compatibility check's reading
 * of `manifest.json` (issue 41). Reads the forms `z.toJSONSchema` writes
 * (`type`, `enum`/`const`, `properties`/`required`, `items`, `anyOf`/`oneOf`
 * for unions and nullables, `$ref` into `$defs`, bounds, `default`).
 */

type Schema = Record<string, unknown>;

/** Why a change breaks what a builder saved: the input's kinds, then the output's (and an event payload's). */
export type BreakingKind =
  | 'required_added'
  | 'field_removed'
  | 'type_narrowed'
  | 'enum_narrowed'
  | 'bound_narrowed'
  | 'default_changed'
  | 'path_removed'
  | 'path_retyped'
  | 'path_made_optional';

/** One breaking change at one path (`created_after`, `tickets[*].id`; empty for the whole value). */
export interface SchemaChange {
  path: string;
  kind: BreakingKind;
  detail: string;
}

/**
 * `input`: what a saved input sends must still be accepted and mean the
 * same (no new required field, no removed field, no narrower type, enum or
 * bound, no changed default). `output`: every path a saved mapping reads
 * must still be there with its type (no removed, retyped or optional path).
 */
export type SchemaRole = 'input' | 'output';

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deeper than any real schema; a guard against `$ref` cycles the walk would follow forever. */
const MAX_DEPTH = 32;

/** The breaking changes from `released` to `current`, for a schema in `role`. */
export function breakingSchemaChanges(released: unknown, current: unknown, role: SchemaRole): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const walk = new SchemaWalk(
    role,
    isSchema(released) ? released : {},
    isSchema(current) ? current : {},
    changes,
  );
  walk.compare(released, current, '', 0);
  return changes;
}

class SchemaWalk {
  constructor(
    private readonly role: SchemaRole,
    private readonly releasedRoot: Schema,
    private readonly currentRoot: Schema,
    private readonly changes: SchemaChange[],
  ) {}

  compare(releasedNode: unknown, currentNode: unknown, path: string, depth: number): void {
    if (depth > MAX_DEPTH) return;
    const released = resolve(releasedNode, this.releasedRoot);
    const current = resolve(currentNode, this.currentRoot);
    if (this.role === 'input') this.compareAccepted(released, current, path);
    else this.compareProduced(released, current, path);
    this.compareObjects(released, current, path, depth);
    const releasedItems = itemsOf(released, this.releasedRoot);
    const currentItems = itemsOf(current, this.currentRoot);
    if (releasedItems && currentItems) this.compare(releasedItems, currentItems, `${path}[*]`, depth + 1);
  }

  private add(path: string, kind: BreakingKind, detail: string): void {
    this.changes.push({ path, kind, detail });
  }

  /** Input: whatever the released schema accepted, the current one must accept, with the same defaults. */
  private compareAccepted(released: Schema, current: Schema, path: string): void {
    const was = typesOf(released, this.releasedRoot);
    const now = typesOf(current, this.currentRoot);
    const lost = was === 'any' ? (now === 'any' ? [] : ['any']) : now === 'any' ? [] : missingTypes(was, now);
    if (lost.length) this.add(path, 'type_narrowed', `no longer accepts ${lost.join(', ')}`);
    const wasEnum = enumOf(released, this.releasedRoot);
    const nowEnum = enumOf(current, this.currentRoot);
    if (nowEnum) {
      const dropped = wasEnum
        ? wasEnum.filter((value) => !nowEnum.some((kept) => same(kept, value)))
        : undefined;
      if (!wasEnum) this.add(path, 'enum_narrowed', `now limited to ${nowEnum.map(show).join(', ')}`);
      else if (dropped?.length)
        this.add(path, 'enum_narrowed', `no longer accepts ${dropped.map(show).join(', ')}`);
    }
    for (const [bound, direction] of BOUNDS) {
      const before = released[bound];
      const after = current[bound];
      if (typeof after !== 'number') continue;
      const narrower =
        typeof before !== 'number' || (direction === 'lower' ? after > before : after < before);
      if (narrower) this.add(path, 'bound_narrowed', `${bound} ${show(before)} -> ${after}`);
    }
    if (!same(released.default, current.default)) {
      this.add(path, 'default_changed', `default ${show(released.default)} -> ${show(current.default)}`);
    }
  }

  /** Output: whatever the current schema may produce, the released one must have allowed (a mapping's type holds). */
  private compareProduced(released: Schema, current: Schema, path: string): void {
    const was = typesOf(released, this.releasedRoot);
    const now = typesOf(current, this.currentRoot);
    if (was === 'any') return;
    const added = now === 'any' ? ['any'] : missingTypes(now, was);
    if (added.length)
      this.add(path, 'path_retyped', `may now be ${added.join(', ')} (was ${was.join(', ')})`);
  }

  private compareObjects(released: Schema, current: Schema, path: string, depth: number): void {
    const releasedObjects = objectsOf(released, this.releasedRoot);
    const currentObjects = objectsOf(current, this.currentRoot);
    // Variants of a union are paired in order; a union whose variants were added or removed is compared by its types only.
    if (!releasedObjects.length || releasedObjects.length !== currentObjects.length) {
      if (this.role === 'input' && releasedObjects.length === 0 && currentObjects.length > 0) {
        for (const object of currentObjects) this.newRequired([], object, path);
      }
      return;
    }
    releasedObjects.forEach((was, index) => {
      const now = currentObjects[index]!;
      const wasProperties = propertiesOf(was);
      const nowProperties = propertiesOf(now);
      for (const [name, schema] of Object.entries(wasProperties)) {
        const at = path ? `${path}.${name}` : name;
        if (!(name in nowProperties)) {
          if (this.role === 'input') this.add(at, 'field_removed', 'a saved input that sets it is refused');
          else this.add(at, 'path_removed', 'a saved mapping that reads it finds nothing');
          continue;
        }
        if (this.role === 'output' && requiredOf(was).includes(name) && !requiredOf(now).includes(name)) {
          this.add(at, 'path_made_optional', 'a saved mapping that reads it may find nothing');
        }
        this.compare(schema, nowProperties[name], at, depth + 1);
      }
      if (this.role === 'input') this.newRequired(requiredOf(was), now, path);
    });
  }

  private newRequired(wasRequired: readonly string[], now: Schema, path: string): void {
    for (const name of requiredOf(now)) {
      if (!wasRequired.includes(name)) {
        this.add(path ? `${path}.${name}` : name, 'required_added', 'a saved input without it is refused');
      }
    }
  }
}

/** The bounds that narrow what an input accepts when they rise (lower) or fall (upper). */
const BOUNDS: readonly (readonly [string, 'lower' | 'upper'])[] = [
  ['minimum', 'lower'],
  ['exclusiveMinimum', 'lower'],
  ['minLength', 'lower'],
  ['minItems', 'lower'],
  ['maximum', 'upper'],
  ['exclusiveMaximum', 'upper'],
  ['maxLength', 'upper'],
  ['maxItems', 'upper'],
];

/** A node with its `$ref` (into the root's `$defs`, or the root itself) followed. */
function resolve(node: unknown, root: Schema): Schema {
  let schema = isSchema(node) ? node : {};
  for (let hops = 0; typeof schema.$ref === 'string' && hops < 8; hops += 1) {
    const ref = schema.$ref;
    if (ref === '#') schema = root;
    else if (ref.startsWith('#/$defs/')) {
      const found = (root.$defs as Schema | undefined)?.[ref.slice('#/$defs/'.length)];
      schema = isSchema(found) ? found : {};
    } else break;
  }
  return schema;
}

/** A union's members (`anyOf`, `oneOf`), flattened; the node itself when it is none. */
function branchesOf(node: Schema, root: Schema): Schema[] {
  const members = [node.anyOf, node.oneOf].filter(Array.isArray).flat();
  if (!members.length) return [node];
  return members.flatMap((member) => branchesOf(resolve(member, root), root));
}

/** The JSON types a node allows, or `any` for a node that does not say. */
function typesOf(node: Schema, root: Schema): string[] | 'any' {
  const types = new Set<string>();
  for (const branch of branchesOf(node, root)) {
    const own = branch.type ?? constTypes(branch);
    if (own === undefined) return 'any';
    for (const type of Array.isArray(own) ? own : [own]) types.add(String(type));
  }
  return [...types].sort();
}

function constTypes(branch: Schema): string[] | undefined {
  const values = 'const' in branch ? [branch.const] : Array.isArray(branch.enum) ? branch.enum : undefined;
  return values?.map((value) =>
    value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value,
  );
}

/** The types of `from` that `to` does not allow (an integer is a number). */
function missingTypes(from: readonly string[], to: readonly string[]): string[] {
  return from.filter((type) => !to.includes(type) && !(type === 'integer' && to.includes('number')));
}

/** The values a node is limited to, or undefined when any value of its types goes. */
function enumOf(node: Schema, root: Schema): unknown[] | undefined {
  const values: unknown[] = [];
  for (const branch of branchesOf(node, root)) {
    if ('const' in branch) values.push(branch.const);
    else if (Array.isArray(branch.enum)) values.push(...branch.enum);
    else if (branch.type !== 'null') return undefined;
  }
  return values.length ? values : undefined;
}

function objectsOf(node: Schema, root: Schema): Schema[] {
  return branchesOf(node, root).filter((branch) => isSchema(branch.properties));
}

function itemsOf(node: Schema, root: Schema): unknown {
  return branchesOf(node, root).find((branch) => isSchema(branch.items))?.items;
}

const propertiesOf = (object: Schema): Record<string, unknown> =>
  object.properties as Record<string, unknown>;
const requiredOf = (object: Schema): string[] =>
  Array.isArray(object.required) ? object.required.map(String) : [];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const show = (value: unknown): string => (value === undefined ? 'none' : JSON.stringify(value));
