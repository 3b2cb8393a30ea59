import * as z from 'zod';
import { fieldIssues } from '../errors/field-issues.js';
import type { FieldIssue } from '../errors/index.js';
import { unknownFieldMessage } from '../values/unknown-field-suggestion.js';

type JsonSchemaNode = {
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  oneOf?: JsonSchemaNode[];
  anyOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
};

/** The node itself and every branch it may take (`oneOf`, `anyOf`, `allOf`), depth first. */
function branches(node: JsonSchemaNode | undefined): JsonSchemaNode[] {
  if (!node || typeof node !== 'object') return [];
  return [node, ...[...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])].flatMap(branches)];
}

/** The field names the schema knows at `path` of the input, read from its JSON Schema (what a model sees too). */
function knownFieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let nodes = branches(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode);
  for (const segment of path) {
    nodes = nodes.flatMap((node) =>
      branches(typeof segment === 'number' ? node.items : node.properties?.[String(segment)]),
    );
  }
  return [...new Set(nodes.flatMap((node) => Object.keys(node.properties ?? {})))];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');

/**
 * A zod failure of a step's input as failing fields, in words a model can act
 * on: an unknown field is named with the closest known one ("unknown field
 * `priorty`; did you mean `priority`?"), a missing field "is required", a
 * value outside a list "must be one of ...". Other messages are the schema's own.
 */
export function inputIssues(schema: z.ZodType, error: z.ZodError, input: unknown): FieldIssue[] {
  return error.issues.flatMap((issue): FieldIssue[] => {
    const at = dotted(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = knownFieldsAt(schema, issue.path);
      return issue.keys.map((key) => ({
        path: dotted([...issue.path, key]),
        message: unknownFieldMessage(dotted([...issue.path, key]), known),
      }));
    }
    if (issue.code === 'invalid_type' && at && valueAt(input, issue.path) === undefined) {
      return [{ path: at, message: `\`${at}\` is required` }];
    }
    if (issue.code === 'invalid_value' && at && issue.values.length > 1) {
      return [{ path: at, message: `\`${at}\` must be one of ${issue.values.map(String).join(', ')}` }];
    }
    return fieldIssues(new z.ZodError([issue]));
  });
}
