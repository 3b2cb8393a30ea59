import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import {
  moveProduction,
  ProductionMoveInput,
  ProductionMoveOutput,
  productionMoveStep,
} from './lib/production-move.js';

export default defineStep({
  id: 'deployments.rollback_project',
  integration: deployments,
  title: 'Roll Back Project',
  description: 'Point production back at an earlier production deployment of the project.',
  agentDescription:
    "Rolls the project's production domains back to an earlier production deployment that is READY, without building: the quick fix when a release breaks. Only a deployment that served production before is accepted (use Promote Deployment for a preview). Traffic moves at once; roll forward again with Promote Deployment.",
  keywords: ['rollback', 'roll back', 'revert', 'undo release', 'instant rollback', 'production'],
  get input() {
    return ProductionMoveInput();
  },
  get output() {
    return ProductionMoveOutput();
  },
  ...productionMoveStep,
  examples: [
    {
      title: 'Roll the shop back to a production deployment',
      input: { project: 'shop', deployment_id: 'dpl_from_list_deployments' },
    },
  ],
  async run(input, context) {
    return moveProduction(context, 'rollback', input, 'Rolling back a project');
  },
});
