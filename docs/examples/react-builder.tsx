/**
 * The UI kit in a React 19 app. React 19 passes object props to custom
 * elements as properties and `on<event>` props as listeners of that event,
 * so the elements need no wrapper. `toolsteps/ui/react` adds the JSX types.
 * Type-checked with the project (tsconfig.json includes docs/examples) and
 * rendered in Chromium by test/ui/embedding.test.ts.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { configure, type StepHit } from 'toolsteps/ui';
import type {} from 'toolsteps/ui/react';

export function ToolStepPicker({ onPicked }: { onPicked?: (step: StepHit) => void }) {
  const [step, setStep] = useState<StepHit>();
  const [connection, setConnection] = useState<string>();
  return (
    <div>
      <toolsteps-step-search
        ontoolsteps-select={(event) => {
          setStep(event.detail.step);
          onPicked?.(event.detail.step);
        }}
      />
      {step && (
        <>
          <toolsteps-connection-picker
            integration={step.integration}
            ontoolsteps-change={(event) =>
              setConnection((event.detail.connection as string | null) ?? undefined)
            }
          />
          <toolsteps-step-form
            step={step.id}
            connection={connection}
            variables={{ customer_email: 'ann@example.com' }}
            ontoolsteps-test-result={(event) =>
              console.log(event.detail.ok ? 'passed' : event.detail.error?.message)
            }
          />
        </>
      )}
    </div>
  );
}

/** Mounts the picker; `session` comes from your backend (a short-lived builder token). */
export function mount(element: HTMLElement, session: { apiBase: string; token: string }) {
  configure({ baseUrl: session.apiBase, token: session.token });
  createRoot(element).render(<ToolStepPicker />);
}
