/**
 * `toolsteps/ui`: the builder's web components. Importing this module in a
 * browser defines the five elements (once; a second copy on the page leaves
 * the first in place) and exports their classes, the API client and its
 * types. Imported on a server (Node, a framework's server render), it
 * defines nothing and throws nothing: the tags render as plain HTML there
 * and come alive when the browser loads the module.
 *
 *   import { configure } from 'toolsteps/ui';
 *   configure({ baseUrl: 'https://builder.example.com', token });
 *   // <toolsteps-step-search></toolsteps-step-search> ...
 *
 * React's JSX types for the elements: `import type {} from 'toolsteps/ui/react'`.
 *
 * @module toolsteps/ui
 */
import { rememberChoice } from './client/connect-flow.js';
import { ToolstepsConnectionPicker } from './elements/connection-picker.js';
import { ToolstepsStepForm } from './elements/step-form.js';
import { ToolstepsStepSearch } from './elements/step-search.js';
import { ToolstepsTriggerSetup } from './elements/trigger-setup.js';
import { ToolstepsVariableMapper } from './elements/variable-mapper.js';

export { ApiError, type FieldProblem } from './client/api-error.js';
export type * from './client/api-types.js';
export { BuilderClient, type BuilderClientOptions, configure } from './client/builder-client.js';

import type { ToolstepsEventMap } from './dom/events.js';

/** A value shaped like a JSON Schema: a first sample for the variable mapper before a test has run. */
export { sampleOf } from './forms/schema-fields.js';
export type { ToolstepsEventMap };
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

/** Only a browser has custom elements (and a document whose choices a redirect sign-in comes back to). */
if (typeof customElements !== 'undefined') {
  for (const [tag, element] of Object.entries(ELEMENTS)) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
  document.addEventListener('toolsteps-select', (event) =>
    rememberChoice((event as ToolstepsEventMap['toolsteps-select']).detail.step),
  );
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
