import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { defineStep, type StepId } from '../../src/step/define-step.js';
import type { CatalogStepId, IntegrationId } from '../../steps/index.js';
import { ticketing } from '../../steps/ticketing/integration.js';
import { aboutTestStep } from '../support/test-step.js';

function draft(id: string) {
  return {
    id: id as StepId<'ticketing'>,
    ...aboutTestStep(ticketing, 'Probe', 'A step used only to test ids.'),
    input: z.object({}),
    output: z.object({}),
    access: 'read' as const,
    idempotent: true,
    run: async () => ({}),
  };
}

describe('step ids', () => {
  it('must start with the id of their integration: a typo is a type error, and refused at run time', () => {
    const { id: _id, ...rest } = draft('ticketing.probe');
    expect(defineStep({ ...rest, id: 'ticketing.probe_ticket' }).id).toBe('ticketing.probe_ticket');
    // @ts-expect-error the prefix is not the integration's id
    expect(() => defineStep({ ...rest, id: 'tickting.probe_ticket' })).toThrow(
      /must be "ticketing.<verb_noun>"/,
    );
    // @ts-expect-error an alias is an id of the same integration too
    expect(() => defineStep({ ...rest, id: 'ticketing.probe', aliases: ['governance.probe'] })).toThrow(
      /"governance.probe" must be "ticketing.<verb_noun>"/,
    );
  });

  it('refuse a name that is not snake_case, or a third segment, for JavaScript callers', () => {
    for (const id of ['ticketing.', 'ticketing.Probe', 'ticketing.probe.extra', 'ticketing.probe-ticket']) {
      expect(() => defineStep(draft(id))).toThrow(/must be "ticketing.<verb_noun>"/);
    }
  });

  it('of the catalogue are typed by the union of its integration ids', () => {
    expectTypeOf<IntegrationId>().toEqualTypeOf<
      'ticketing' | 'anz_data' | 'contact_data' | 'governance' | 'deployments'
    >();
    expectTypeOf<'deployments.cancel_deployment'>().toExtend<CatalogStepId>();
    expectTypeOf<'deployment.cancel_deployment'>().not.toExtend<CatalogStepId>();
  });
});
