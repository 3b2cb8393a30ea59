import { InputError, type StepContext } from '../../../src/kit/index.js';

/** The project a project-level operation addresses: the connection's, or an InputError before anything is sent. */
export function connectionProject(context: Pick<StepContext, 'connection'>): string {
  const project = context.connection.fields.projectId;
  if (!project) {
    throw new InputError(
      `Connection "${context.connection.id}" has no projectId, which this step needs (the project travels in the Authorization header). Nothing was sent; add it with: toolsteps connections add governance --id ${context.connection.id} --project-id <id> ...`,
      [{ path: 'connection.projectId', message: 'required for project operations' }],
    );
  }
  return project;
}
