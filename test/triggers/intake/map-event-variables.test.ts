import { describe, expect, it } from 'vitest';
import { mapEventVariables } from '../../../src/triggers/intake/map-event-variables.js';
import deploymentFailed from '../../../steps/deployments/triggers/deployment-failed.js';
import ticketStatusChanged from '../../../steps/ticketing/triggers/ticket-status-changed.js';
import { deploymentEvent, subscriptionFor, ticketStatusEvent } from '../trigger-fixtures.js';

const id = 'sub_0123456789abcdef';

describe('stage 8: map variables', () => {
  it('maps the ticket fields by default', () => {
    const subscription = subscriptionFor('ticketing.ticket_status_changed', { id });
    expect(mapEventVariables(ticketStatusChanged, subscription, ticketStatusEvent())).toEqual({
      ticket_id: '5158',
      subject: 'Printer on fire',
      description: 'The printer in room 3 is on fire.',
      requester: '8447388090494',
      priority: 'HIGH',
      status: 'SOLVED',
      previous_status: 'OPEN',
      assignee: '8447388090111',
    });
  });

  it('adds and overrides variables with the subscription’s JSONPath mapping', () => {
    const subscription = subscriptionFor('ticketing.ticket_status_changed', {
      id,
      mapping: { subject: '$.subject', tags: '$.detail.tags[*]' },
    });
    const variables = mapEventVariables(ticketStatusChanged, subscription, ticketStatusEvent());
    expect(variables.subject).toBe('zen:ticket:5158');
    expect(variables.tags).toEqual(['hardware']);
  });

  it('maps the deployment fields, null where the provider gave no error message', () => {
    const subscription = subscriptionFor('deployments.deployment_failed', { id });
    expect(mapEventVariables(deploymentFailed, subscription, deploymentEvent('deployment.error'))).toEqual({
      deployment_id: 'dpl_1',
      url: 'web-abc.vercel.app',
      project: 'prj_web',
      name: 'web',
      target: 'production',
      state: 'deployment.error',
      error_message: null,
    });
  });

  it('refuses a broken mapping instead of guessing', () => {
    const subscription = subscriptionFor('ticketing.ticket_status_changed', { id, mapping: { bad: '$[' } });
    expect(() => mapEventVariables(ticketStatusChanged, subscription, ticketStatusEvent())).toThrowError(
      /Invalid variable mapping: variables.bad/,
    );
  });
});
