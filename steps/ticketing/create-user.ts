import * as z from 'zod';
import { builtOnce, definedOnly, defineStep, type HttpClient, readAnswer } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { User, UserFields } from './lib/people-schema.js';
import { readMember } from './lib/read-member.js';
import { organizationOptions } from './lib/ticketing-options.js';

const CreateUserInput = builtOnce(() =>
  z.strictObject({
    name: z.string().trim().min(1).max(255).describe('Full name.'),
    email: UserFields().email.optional(),
    role: UserFields().role.default('end-user'),
    organization_id: UserFields().organization_id.optional(),
    phone: UserFields().phone.optional(),
    external_id: UserFields().external_id.optional(),
    time_zone: UserFields().time_zone.optional(),
    tags: UserFields().tags.optional(),
    notes: UserFields().notes.optional(),
  }),
);

const Found = builtOnce(() => z.object({ users: z.array(User()) }));

export default defineStep({
  id: 'ticketing.create_user',
  integration: ticketing,
  title: 'Create User',
  description: 'Create a user: a customer (end user) by default, or an agent or admin.',
  agentDescription:
    'Creates one user. role defaults to end-user (a customer); agent and admin seats may cost the account money, so create them only when asked. Give email or external_id: the step looks the user up by them before creating and after an ambiguous failure, so a retry never makes a duplicate (recovered: true when found). Emails are unique in the account; use Search Users to check first.',
  keywords: ['new user', 'add customer', 'create contact', 'add agent', 'register', 'requester'],
  get input() {
    return CreateUserInput();
  },
  get output() {
    return z.object({
      user: User().describe('The user as created (or as found).'),
      recovered: z
        .boolean()
        .describe(
          'True when the user already existed with this email or external_id and was not created again.',
        ),
    });
  },
  access: 'write',
  idempotent: false,
  // Email and external_id are unique in the account: a create that landed is found by either.
  replay: {
    mode: 'reconcile',
    find: (input, { http }) => findExisting(http, input),
    hint: (input) =>
      input.email || input.external_id
        ? 'The user may or may not have been created. Call Create User again with the same email or external_id: it looks the user up first.'
        : 'The user may or may not have been created. Search Users by name before creating again.',
  },
  options: { organization_id: organizationOptions },
  variables: { user_id: '$.user.id', email: '$.user.email' },
  examples: [
    {
      title: 'A customer of Acme',
      input: { name: 'Jo Customer', email: 'jo@customer.example', organization_id: 1 },
    },
  ],
  async run(input, { http }) {
    const existing = await findExisting(http, input);
    if (existing) return existing;
    const path = ticketingPath('users');
    const response = await http.request({ method: 'POST', path, body: { user: definedOnly({ ...input }) } });
    return { user: readMember(response.body, 'user', User(), `POST ${path}`), recovered: false };
  },
});

/** The user an earlier create made, by external_id or email; undefined when neither is given or none matches. */
async function findExisting(http: HttpClient, input: z.output<ReturnType<typeof CreateUserInput>>) {
  const query = input.external_id
    ? { external_id: input.external_id }
    : input.email
      ? { query: `email:${input.email}` }
      : undefined;
  if (!query) return undefined;
  const path = ticketingPath('usersSearch');
  const response = await http.request({ method: 'GET', path, query });
  const wanted = input.email?.toLowerCase();
  const user = readAnswer(Found(), response.body, `GET ${path}`).users.find(
    (candidate) =>
      (input.external_id !== undefined && candidate.external_id === input.external_id) ||
      (wanted !== undefined && candidate.email?.toLowerCase() === wanted),
  );
  return user ? { user, recovered: true } : undefined;
}
