import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../src/catalog/manifest.js';
import { rankItems } from '../src/catalog/search-ranking.js';
import { packageRoot } from '../src/disk/package-root.js';

export type CatalogIntegration = Manifest['integrations'][number];
export type CatalogStep = Manifest['steps'][number];

/**
 * The catalogue as the committed manifest.json describes it (a test keeps it
 * equal to the registry): `list` and `search` answer from it without loading
 * a step or zod, which would cost more than the rest of the command.
 */
export class Catalog {
  private constructor(private readonly manifest: Manifest) {}

  static read(file = path.join(packageRoot(), 'manifest.json')): Catalog {
    return new Catalog(JSON.parse(readFileSync(file, 'utf8')) as Manifest);
  }

  listIntegrations(): CatalogIntegration[] {
    return this.manifest.integrations;
  }

  listSteps(integrationId?: string): CatalogStep[] {
    const all = this.manifest.steps;
    return integrationId ? all.filter((step) => step.integration === integrationId) : all;
  }

  /** Ranked exactly as `Registry.search`. */
  search(query: string, limit = 20): { step: CatalogStep; score: number }[] {
    const integrations = new Map(this.manifest.integrations.map((entry) => [entry.id, entry]));
    const integrationOf = (step: CatalogStep) => integrations.get(step.integration)!;
    return rankItems(this.manifest.steps, integrationOf, query, limit).map(({ item, score }) => ({
      step: item,
      score,
    }));
  }
}
