import deploymentCanceled from './deployment-canceled.js';
import deploymentCompleted from './deployment-completed.js';
import deploymentFailed from './deployment-failed.js';
import deploymentPromoted from './deployment-promoted.js';
import deploymentStarted from './deployment-started.js';

export const deploymentsTriggers = [
  deploymentStarted,
  deploymentCompleted,
  deploymentFailed,
  deploymentCanceled,
  deploymentPromoted,
];
