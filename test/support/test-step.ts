/**
 * What a step written for a test declares besides its behaviour, spread into
 * `defineStep`: its integration, a title, one description for people and
 * agents alike, and no keywords or variables.
 */
export function aboutTestStep<Owner>(integration: Owner, title: string, description: string) {
  return {
    integration,
    title,
    description,
    agentDescription: description,
    keywords: [] as string[],
    variables: {},
  };
}
