/**
 * `toolsteps/ui`: the builder's web components. Importing this module
 * defines the five elements (once; a second copy on the page leaves the
 * first in place) and exports their classes, the API client and its types.
 *
 *   import { configure } from 'toolsteps/ui';
 *   configure({ baseUrl: 'https://builder.example.com', token });
 *   // <toolsteps-step-search></toolsteps-step-search> ...
 *
 * React's JSX types for the elements: `import type {} from 'toolsteps/ui/react'`.
 *
 * @module toolsteps/ui
 */
import { ToolstepsConnectionPicker } from './elements/connection-picker.js';
import { ToolstepsStepForm } from './elements/step-form.js';
import { ToolstepsStepSearch } from './elements/step-search.js';
import { ToolstepsTriggerSetup } from './elements/trigger-setup.js';
import { ToolstepsVariableMapper } from './elements/variable-mapper.js';

export { ApiError, type FieldProblem } from './client/api-error.js';
export type * from './client/api-types.js';
export { BuilderClient, type BuilderClientOptions, configure } from './client/builder-client.js';
export type { ToolstepsEventMap } from './dom/events.js';
/** A value shaped like a JSON Schema: a first sample for the variable mapper before a test has run. */
export { sampleOf } from './forms/schema-fields.js';
export {
  ToolstepsConnectionPicker,
  ToolstepsStepForm,
  ToolstepsStepSearch,
  ToolstepsTriggerSetup,
  ToolstepsVariableMapper,
};

/** Every element of the kit, by tag. */
export const ELEMENTS = {
  'toolsteps-step-search': ToolstepsStepSearch,
  'toolsteps-connection-picker': ToolstepsConnectionPicker,
  'toolsteps-step-form': ToolstepsStepForm,
  'toolsteps-variable-mapper': ToolstepsVariableMapper,
  'toolsteps-trigger-setup': ToolstepsTriggerSetup,
} as const;

for (const [tag, element] of Object.entries(ELEMENTS)) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'toolsteps-step-search': ToolstepsStepSearch;
    'toolsteps-connection-picker': ToolstepsConnectionPicker;
    'toolsteps-step-form': ToolstepsStepForm;
    'toolsteps-variable-mapper': ToolstepsVariableMapper;
    'toolsteps-trigger-setup': ToolstepsTriggerSetup;
  }
}
