import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/** Field schemas shared by the lookups; each says what it accepts. */

export const ProfileUrl = builtOnce(() =>
  z
    .url({ protocol: /^https?$/, error: 'an http(s) profile URL' })
    .max(500)
    .describe('Public profile URL, e.g. https://profiles.example/in/olivia-nguyen.'),
);

export const ProfileSlug = builtOnce(() =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.%-]{0,99}$/, 'a profile slug: letters, digits, -, _, . and %')
    .describe('The last part of a profile URL, e.g. olivia-nguyen.'),
);

export const WorkEmail = builtOnce(() =>
  z.email().max(320).describe('Email address of the person, e.g. olivia@wattle-analytics.example.'),
);

export const Domain = builtOnce(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z][a-zA-Z0-9-]{0,62}$/,
      'a domain such as acme.com.au, without https:// or a path',
    )
    .describe('Company web domain, e.g. wattle-analytics.example (no https://, no path).'),
);

export const Website = builtOnce(() =>
  z
    .url({ protocol: /^https?$/, error: 'an http(s) website URL' })
    .max(500)
    .describe('Company website URL, e.g. https://www.wattle-analytics.example.'),
);
