import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { isoTime, readAnswer } from './provider-answer.js';

const ProviderTeam = builtOnce(() =>
  z
    .object({
      id: z.string(),
      slug: z.string(),
      name: z.string().nullable().optional(),
      createdAt: z.number().optional(),
      membership: z.object({ role: z.string().optional() }).loose().nullable().optional(),
    })
    .loose(),
);

export const Team = builtOnce(() =>
  z.object({
    id: z.string().describe('Team id (team_...): the teamId of a connection.'),
    slug: z.string().describe('Team slug, as in its dashboard address.'),
    name: z.string().nullable().describe('Team name.'),
    role: z.string().nullable().describe("The connected user's role in the team, e.g. OWNER or MEMBER."),
    created_at: z.string().nullable().describe('ISO 8601 creation time.'),
  }),
);

export function toTeam(raw: unknown, where = 'team'): z.infer<ReturnType<typeof Team>> {
  const value = readAnswer(ProviderTeam(), raw, where, 'a team');
  return {
    id: value.id,
    slug: value.slug,
    name: value.name ?? null,
    role: value.membership?.role ?? null,
    created_at: isoTime(value.createdAt),
  };
}

const ProviderMember = builtOnce(() =>
  z
    .object({
      uid: z.string(),
      username: z.string().optional(),
      email: z.string().optional(),
      name: z.string().nullable().optional(),
      role: z.string(),
      confirmed: z.boolean().optional(),
      createdAt: z.number().optional(),
    })
    .loose(),
);

export const TeamMember = builtOnce(() =>
  z.object({
    user_id: z.string().describe('User id.'),
    username: z.string().nullable().describe('Username.'),
    email: z.string().nullable().describe('Email address.'),
    name: z.string().nullable().describe('Display name.'),
    role: z
      .string()
      .describe('OWNER, MEMBER, DEVELOPER, SECURITY, BILLING, VIEWER, VIEWER_FOR_PLUS or CONTRIBUTOR.'),
    confirmed: z.boolean().describe('False while an invitation is pending.'),
    joined_at: z.string().nullable().describe('ISO 8601 time the member was added.'),
  }),
);

export function toTeamMember(raw: unknown, where = 'member'): z.infer<ReturnType<typeof TeamMember>> {
  const value = readAnswer(ProviderMember(), raw, where, 'a team member');
  return {
    user_id: value.uid,
    username: value.username ?? null,
    email: value.email ?? null,
    name: value.name ?? null,
    role: value.role,
    confirmed: value.confirmed ?? true,
    joined_at: isoTime(value.createdAt),
  };
}
