import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError } from '../../../src/errors/index.js';
import type { ProviderFailure } from '../../../src/model/define-integration.js';
import { classifyGovernanceError } from '../../../steps/governance/lib/classify-error.js';

function failure(status: number, path: string, operation?: string): ProviderFailure {
  return { status, path, method: 'POST', headers: new Headers(), body: {}, operation };
}

describe('the governance error classifier', () => {
  it('explains a 404 by the operation the request named, whatever its path', () => {
    const error = classifyGovernanceError(failure(404, '/latest/auth/invite/delete', 'deleteInvite'), {});
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error?.message).toContain('Only pending invites');
    const byOperation = classifyGovernanceError(failure(404, '/somewhere/else', 'removeUser'), {});
    expect(byOperation?.message).toContain('the user must be a member of the project');
  });

  it('does not guess the operation from the path: without one, only the 401 rule applies', () => {
    expect(classifyGovernanceError(failure(404, '/latest/auth/invite/delete'), {})).toBeUndefined();
    expect(classifyGovernanceError(failure(403, '/latest/auth/users/u1/delete'), {})).toBeUndefined();
    expect(classifyGovernanceError(failure(404, '/x', 'toString'), {})).toBeUndefined();
  });

  it('asks for the Admin permission only on operations that need it', () => {
    expect(classifyGovernanceError(failure(403, '/p', 'removeUser'), {})).toBeInstanceOf(PermissionError);
    expect(classifyGovernanceError(failure(403, '/p', 'createProject'), {})).toBeUndefined();
  });
});
