import { InputError } from './errors.js';
import type { Integration } from './integration.js';
import type { InvocationResult, InvokeOptions, Runtime } from './runtime.js';
import { scoreStep } from './search-ranking.js';
import type { AnyStep } from './step.js';

export interface SearchHit {
  step: AnyStep;
  score: number;
}

/** Holds integrations and steps, refuses duplicates, ranks search results and invokes. */
export class Registry {
  private readonly integrations = new Map<string, Integration>();
  private readonly steps = new Map<string, AnyStep>();

  registerIntegration(integration: Integration): this {
    if (this.integrations.has(integration.id)) {
      throw new Error(`Integration "${integration.id}" is already registered.`);
    }
    this.integrations.set(integration.id, integration);
    return this;
  }

  registerStep(step: AnyStep): this {
    if (this.steps.has(step.id)) throw new Error(`Step "${step.id}" is already registered.`);
    const integration = this.integrations.get(step.integration.id);
    if (!integration)
      throw new Error(`Step "${step.id}" needs integration "${step.integration.id}" registered first.`);
    if (integration !== step.integration) {
      throw new Error(
        `Step "${step.id}" was defined against another instance of integration "${integration.id}".`,
      );
    }
    this.steps.set(step.id, step);
    return this;
  }

  integration(id: string): Integration | undefined {
    return this.integrations.get(id);
  }

  listIntegrations(): Integration[] {
    return [...this.integrations.values()];
  }

  step(id: string): AnyStep | undefined {
    return this.steps.get(id);
  }

  /** The step, or an InputError that suggests the closest ids. */
  requireStep(id: string): AnyStep {
    const step = this.steps.get(id);
    if (step) return step;
    const suggestions = this.search(id.replace(/[._]/g, ' '), 3).map((hit) => hit.step.id);
    throw new InputError(
      `Unknown step "${id}".${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
      [{ path: 'step', message: 'unknown step id' }],
    );
  }

  listSteps(integrationId?: string): AnyStep[] {
    const all = [...this.steps.values()];
    return integrationId ? all.filter((step) => step.integration.id === integrationId) : all;
  }

  search(query: string, limit = 20): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const step of this.steps.values()) {
      const integration = this.integrations.get(step.integration.id)!;
      const score = scoreStep(step, integration, query);
      if (score > 0) hits.push({ step, score });
    }
    hits.sort((a, b) => b.score - a.score || a.step.id.localeCompare(b.step.id));
    return hits.slice(0, limit);
  }

  invoke<Output = unknown>(
    runtime: Runtime,
    stepId: string,
    options: InvokeOptions,
  ): Promise<InvocationResult<Output>> {
    return runtime.invoke<Output>(this.requireStep(stepId), options);
  }
}
