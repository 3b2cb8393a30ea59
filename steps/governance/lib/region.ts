/**
 * The platform's public host. Confirmed from the platform's own governance
 * docs (relevanceai.com/docs/enterprise/org-project-controls-governance),
 * whose examples call `https://api-f1db6c.stack.tryrelevance.com/latest/...`.
 */
export const PLATFORM_HOST = 'tryrelevance.com';

/** The one region table: each region is its own stack, with its own host (provider facts). */
export const REGION_CODES = { au: 'f1db6c', eu: 'd7b62b', us: 'bcbe5a' } as const;
export const REGIONS = Object.keys(REGION_CODES) as [
  keyof typeof REGION_CODES,
  ...(keyof typeof REGION_CODES)[],
];
export type Region = keyof typeof REGION_CODES;

export function regionBaseUrl(region: Region): string {
  return `https://api-${REGION_CODES[region]}.stack.${PLATFORM_HOST}`;
}
