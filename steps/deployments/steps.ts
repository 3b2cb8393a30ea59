import apiCall from './api-call.js';
import cancelDeployment from './cancel-deployment.js';
import createDeployment from './create-deployment.js';
import listDeployments from './list-deployments.js';

export const deploymentsSteps = [createDeployment, listDeployments, cancelDeployment, apiCall];
