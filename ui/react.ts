/**
 * `toolsteps/ui/react`: the kit's elements as JSX intrinsic elements for
 * React 19 (`import type {} from 'toolsteps/ui/react'` once in the app).
 * React 19 sets properties on custom elements and passes `on<event>`
 * props as listeners of the event of that name (`ontoolsteps-select`).
 *
 * @module toolsteps/ui/react
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { BuilderClient } from './client/builder-client.js';
import type { ToolstepsEventMap } from './dom/events.js';
import type {
  ToolstepsConnectionPicker,
  ToolstepsStepForm,
  ToolstepsStepSearch,
  ToolstepsTriggerSetup,
  ToolstepsVariableMapper,
} from './index.js';

type Listeners = {
  [Name in keyof ToolstepsEventMap as `on${Name}`]?: (event: ToolstepsEventMap[Name]) => void;
};

type ElementProps<E extends HTMLElement, Own> = DetailedHTMLProps<HTMLAttributes<E>, E> &
  Listeners &
  Own & { client?: BuilderClient };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'toolsteps-step-search': ElementProps<ToolstepsStepSearch, { query?: string; limit?: number }>;
      'toolsteps-connection-picker': ElementProps<
        ToolstepsConnectionPicker,
        { integration: string; value?: string }
      >;
      'toolsteps-step-form': ElementProps<
        ToolstepsStepForm,
        {
          step?: string;
          connection?: string;
          variables?: Record<string, unknown>;
          mapping?: Record<string, string>;
        }
      >;
      'toolsteps-variable-mapper': ElementProps<
        ToolstepsVariableMapper,
        { sample?: unknown; defaults?: Record<string, string>; label?: string }
      >;
      'toolsteps-trigger-setup': ElementProps<ToolstepsTriggerSetup, { inputs?: string }>;
    }
  }
}
