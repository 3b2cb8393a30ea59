import { describe, expect, it } from 'vitest';
import { filterEvent } from '../../../src/triggers/intake/filter-event.js';
import deploymentStarted from '../../../steps/deployments/triggers/deployment-started.js';
import commentAdded from '../../../steps/ticketing/triggers/comment-added.js';
import ticketStatusChanged from '../../../steps/ticketing/triggers/ticket-status-changed.js';
import { deploymentEvent, subscriptionFor, ticketStatusEvent } from '../trigger-fixtures.js';

const id = 'sub_0123456789abcdef';

describe('stage 7: filter by setup options and constraints', () => {
  it('passes everything to an active subscription without options', () => {
    const subscription = subscriptionFor('ticketing.ticket_status_changed', { id });
    expect(filterEvent(ticketStatusChanged, subscription, ticketStatusEvent())).toBeUndefined();
  });

  it('skips every event of an inactive subscription', () => {
    const subscription = subscriptionFor('ticketing.ticket_status_changed', { id, active: false });
    expect(filterEvent(ticketStatusChanged, subscription, ticketStatusEvent())).toMatch(/inactive/);
  });

  it('applies setup options, without case (the provider capitalises enums)', () => {
    const subscription = subscriptionFor('ticketing.ticket_status_changed', {
      id,
      setup: { to_statuses: ['solved'] },
    });
    expect(
      filterEvent(ticketStatusChanged, subscription, ticketStatusEvent({ current: 'SOLVED' })),
    ).toBeUndefined();
    expect(filterEvent(ticketStatusChanged, subscription, ticketStatusEvent({ current: 'PENDING' }))).toMatch(
      /PENDING is not one of solved/,
    );
  });

  it('skips internal notes when asked for public comments only', () => {
    const subscription = subscriptionFor('ticketing.comment_added', { id, setup: { public_only: true } });
    const event = {
      ...ticketStatusEvent(),
      type: 'zen:event-type:ticket.comment_added',
      event: { comment: { id: 1, body: 'note', is_public: false } },
    };
    expect(filterEvent(commentAdded, subscription, commentAdded.event.parse(event))).toMatch(/internal note/);
  });

  it('enforces project scoping again at intake, and the target option', () => {
    const scoped = subscriptionFor('deployments.deployment_started', {
      id,
      constraints: { projects: ['prj_web'] },
    });
    expect(filterEvent(deploymentStarted, scoped, deploymentEvent())).toBeUndefined();
    expect(
      filterEvent(deploymentStarted, scoped, deploymentEvent('deployment.created', { project: 'prj_api' })),
    ).toMatch(/prj_api is outside/);
    const production = subscriptionFor('deployments.deployment_started', {
      id,
      setup: { targets: ['production'] },
    });
    expect(
      filterEvent(deploymentStarted, production, deploymentEvent('deployment.created', { target: null })),
    ).toMatch(/preview is not one of production/);
  });
});
