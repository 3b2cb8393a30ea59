import addDomain from './add-domain.js';
import apiCall from './api-call.js';
import assignAlias from './assign-alias.js';
import cancelDeployment from './cancel-deployment.js';
import createDeployment from './create-deployment.js';
import createEnvVar from './create-env-var.js';
import createProject from './create-project.js';
import deleteAlias from './delete-alias.js';
import deleteDeployment from './delete-deployment.js';
import deleteEnvVar from './delete-env-var.js';
import deleteProject from './delete-project.js';
import getAccountDomain from './get-account-domain.js';
import getAlias from './get-alias.js';
import getDeployment from './get-deployment.js';
import getDeploymentEvents from './get-deployment-events.js';
import getDomainConfig from './get-domain-config.js';
import getProject from './get-project.js';
import listAccountDomains from './list-account-domains.js';
import listAliases from './list-aliases.js';
import listDeployments from './list-deployments.js';
import listDomains from './list-domains.js';
import listEnvVars from './list-env-vars.js';
import listProjects from './list-projects.js';
import listTeamMembers from './list-team-members.js';
import listTeams from './list-teams.js';
import promoteDeployment from './promote-deployment.js';
import redeploy from './redeploy.js';
import removeDomain from './remove-domain.js';
import rollbackProject from './rollback-project.js';
import updateEnvVar from './update-env-var.js';
import updateProject from './update-project.js';
import verifyProjectDomain from './verify-project-domain.js';

export const deploymentsSteps = [
  createDeployment,
  listDeployments,
  getDeployment,
  getDeploymentEvents,
  cancelDeployment,
  redeploy,
  promoteDeployment,
  rollbackProject,
  deleteDeployment,
  listProjects,
  getProject,
  createProject,
  updateProject,
  deleteProject,
  listEnvVars,
  createEnvVar,
  updateEnvVar,
  deleteEnvVar,
  listDomains,
  addDomain,
  verifyProjectDomain,
  getDomainConfig,
  removeDomain,
  listAccountDomains,
  getAccountDomain,
  listAliases,
  getAlias,
  assignAlias,
  deleteAlias,
  listTeams,
  listTeamMembers,
  apiCall,
];
