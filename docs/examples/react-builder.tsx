'use client';
/**
 * The UI kit in a React 19 app (a Next.js client component as it is).
 * React 19 passes object props to custom elements as properties and
 * `on<event>` props as listeners of that event, so the elements need no
 * wrapper. `toolsteps/ui/react` adds the JSX types.
 *
 * Importing `toolsteps/ui` at the top is safe in a server render: on a
 * server it defines no element and throws nothing, the tags render as
 * plain HTML, and the browser upgrades them when the module loads there.
 *
 * Type-checked with the project (docs/examples/tsconfig.json), rendered in
 * Chromium and server-rendered in Node by test/ui/quick-start.test.ts.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { configure, type StepDescription, type StepHit, sampleOf } from 'toolsteps/ui';
import type {} from 'toolsteps/ui/react';

export function ToolStepPicker({ onPicked }: { onPicked?: (step: StepHit) => void }) {
  const [step, setStep] = useState<StepHit>();
  const [connection, setConnection] = useState<string>();
  const [described, setDescribed] = useState<StepDescription>();
  const [sample, setSample] = useState<unknown>();
  const [mapping, setMapping] = useState<Record<string, string>>();
  const [outcome, setOutcome] = useState('');
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
            mapping={mapping}
            ontoolsteps-loaded={(event) => {
              // The mapper starts from the output's shape and the step's default variables.
              setDescribed(event.detail.step);
              setSample(sampleOf(event.detail.step.output));
            }}
            ontoolsteps-test-result={(event) => {
              const { ok, result, error } = event.detail;
              // After a test, the mapper shows the real output to pick variables from.
              if (result && 'output' in result) setSample(result.output);
              setOutcome(ok ? 'Test passed' : `Test failed: ${error?.message}`);
            }}
          />
          {described && (
            <toolsteps-variable-mapper
              sample={sample}
              defaults={described.variables}
              ontoolsteps-change={(event) => setMapping(event.detail.mapping as Record<string, string>)}
            />
          )}
          <p role="status">{outcome}</p>
        </>
      )}
    </div>
  );
}

/** A builder session from your backend: the API's address, a short-lived token, and its life in seconds. */
export interface BuilderSession {
  apiBase: string;
  token: string;
  expiresIn: number;
}

/**
 * Mounts the picker. The token is read before each request: one about to
 * expire is replaced by a new session from `renew` (your backend) first.
 */
export function mount(element: HTMLElement, first: BuilderSession, renew: () => Promise<BuilderSession>) {
  let session = first;
  let renewAt = Date.now() + (session.expiresIn - 60) * 1000;
  configure({
    baseUrl: session.apiBase,
    token: async () => {
      if (Date.now() >= renewAt) {
        session = await renew();
        renewAt = Date.now() + (session.expiresIn - 60) * 1000;
      }
      return session.token;
    },
  });
  createRoot(element).render(<ToolStepPicker />);
}
