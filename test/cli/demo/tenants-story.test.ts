import { describe, expect, it } from 'vitest';
import { tenantsStory } from '../../../cli/demo/tenants-story.js';
import { tellStory } from './demo-harness.js';

describe('the demo: two tenants side by side', () => {
  it('acme and globex each see and use only their own "support", and the other\'s connection is refused', async () => {
    const lines = await tellStory(tenantsStory);
    expect(lines[0]).toBe('== Tenants: acme and globex, each with its own "support" connection');
    expect(lines[1]).toMatch(
      /^acme sees \[support, acme-billing\]; its "support" made ticket \d+ in the acme desk$/,
    );
    expect(lines[2]).toMatch(/^globex sees \[support\]; its "support" made ticket \d+ in the globex desk$/);
    expect(lines[3]).toContain('refused (not_found)');
  });
});
