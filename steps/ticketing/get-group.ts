import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { Group, GroupId } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';
import { getRecord } from './lib/read-member.js';
import { groupOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.get_group',
  integration: ticketing,
  title: 'Get Group',
  description: 'Read one group of agents: name, description, default and private.',
  agentDescription:
    'Reads one group of agents by numeric id, e.g. the group_id of a ticket. A deleted group is NotFoundError. Read-only and safe to retry.',
  keywords: ['group', 'team', 'queue', 'department'],
  get input() {
    return z.strictObject({ group_id: GroupId() });
  },
  get output() {
    return z.object({ group: Group().describe('The group.') });
  },
  access: 'read',
  idempotent: true,
  options: { group_id: groupOptions },
  variables: { group_id: '$.group.id', name: '$.group.name' },
  examples: [{ title: 'Read group 360001 (Support)', input: { group_id: 360001 } }],
  async run(input, { http }) {
    return { group: await getRecord(http, ticketingPath('group', input.group_id), 'group', Group()) };
  },
});
