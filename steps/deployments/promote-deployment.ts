import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import {
  moveProduction,
  ProductionMoveInput,
  ProductionMoveOutput,
  productionMoveStep,
} from './lib/production-move.js';

export default defineStep({
  id: 'deployments.promote_deployment',
  integration: deployments,
  title: 'Promote Deployment',
  description: "Make a READY deployment serve the project's production domains.",
  agentDescription:
    "Points the project's production domains at one of its READY deployments (e.g. a preview that passed review), without building again. Traffic moves at once; to undo, promote or roll back to the previous production deployment (Get Alias shows which one serves now). A deployment that is not READY is refused by the provider.",
  keywords: ['promote', 'go live', 'release', 'production', 'ship', 'publish'],
  get input() {
    return ProductionMoveInput();
  },
  get output() {
    return ProductionMoveOutput();
  },
  ...productionMoveStep,
  examples: [
    {
      title: 'Promote a finished deployment of the shop',
      input: { project: 'shop', deployment_id: 'dpl_from_list_deployments' },
    },
  ],
  async run(input, context) {
    return moveProduction(context, 'promote', input, 'Promoting a deployment');
  },
});
