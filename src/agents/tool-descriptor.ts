import type { AnyStep } from '../step/define-step.js';
import { deprecationNote } from '../step/version-facts.js';
import type { ConnectionOption } from './connection-choice.js';
import {
  type JsonSchema,
  type ObjectJsonSchema,
  objectJsonSchema,
  propertiesOf,
  requiredOf,
} from './json-schema.js';
import { toolNameOf } from './tool-name.js';

/** The MCP tool annotations, which the other runtimes' descriptors leave out. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One step as a tool, in the provider-neutral form every exporter starts from. */
export interface ToolDescriptor {
  name: string;
  stepId: string;
  title: string;
  description: string;
  /** The step's input schema, plus a `connection` argument when the agent must choose one. */
  inputSchema: ObjectJsonSchema;
  /** The step's input schema alone: what validation and null-stripping read. */
  stepInputSchema: ObjectJsonSchema;
  /** `{output, variables, meta}`, with `output` the step's output schema. */
  outputSchema: ObjectJsonSchema;
  annotations: ToolAnnotations;
  /** The connections the tool may use: one when it is settled, several when the agent picks. */
  connections: readonly ConnectionOption[];
}

/** The argument that carries the agent's choice of connection. */
export const CONNECTION_ARGUMENT = 'connection';

/** Honest hints from the step's contract; every step talks to a provider outside this process. */
export function annotationsOf(step: AnyStep): ToolAnnotations {
  return {
    title: step.title,
    readOnlyHint: step.access === 'read',
    destructiveHint: step.access === 'destructive',
    idempotentHint: step.idempotent,
    openWorldHint: true,
  };
}

function describeChoice(options: readonly ConnectionOption[]): string {
  const listed = options.map((option) =>
    option.label ? `"${option.id}" (${option.label})` : `"${option.id}"`,
  );
  return `Which connected account to use: ${listed.join(', ')}.`;
}

/** The input schema with a required `connection` enum of connection ids (labels in its description). */
function withConnectionArgument(
  step: AnyStep,
  schema: ObjectJsonSchema,
  options: readonly ConnectionOption[],
): ObjectJsonSchema {
  if (CONNECTION_ARGUMENT in propertiesOf(schema)) {
    throw new Error(`Step ${step.id} has an input field named "${CONNECTION_ARGUMENT}"; tools reserve it.`);
  }
  const connection: JsonSchema = {
    type: 'string',
    enum: options.map((option) => option.id),
    description: describeChoice(options),
  };
  return {
    ...schema,
    properties: { ...propertiesOf(schema), [CONNECTION_ARGUMENT]: connection },
    required: [...requiredOf(schema), CONNECTION_ARGUMENT],
  };
}

const VARIABLES_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Named values picked out of the output by the step’s variable mapping.',
  additionalProperties: true,
};

const META_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'How the call went: step, connection id, attempts, retries, duration, credits, rate limit.',
  additionalProperties: true,
};

export function resultSchemaOf(output: JsonSchema): ObjectJsonSchema {
  return {
    type: 'object',
    properties: { output, variables: VARIABLES_SCHEMA, meta: META_SCHEMA },
    required: ['output', 'variables', 'meta'],
  };
}

/** The model's description, with the cost of a paid step and, first, the retirement of a deprecated major. */
function descriptionOf(step: AnyStep): string {
  const described = step.credits
    ? `${step.agentDescription} Credits: ${step.credits.basis}.`
    : step.agentDescription;
  const note = deprecationNote(step);
  return note ? `${note} ${described}` : described;
}

/** The tool for one step, given the connections it may use (at least one). */
export function describeTool(step: AnyStep, connections: readonly ConnectionOption[]): ToolDescriptor {
  const stepInputSchema = objectJsonSchema(step.input, 'input', step.id);
  return {
    name: toolNameOf(step.id),
    stepId: step.id,
    title: step.title,
    description: descriptionOf(step),
    inputSchema:
      connections.length > 1 ? withConnectionArgument(step, stepInputSchema, connections) : stepInputSchema,
    stepInputSchema,
    outputSchema: resultSchemaOf(objectJsonSchema(step.output, 'output', step.id)),
    annotations: annotationsOf(step),
    connections,
  };
}
