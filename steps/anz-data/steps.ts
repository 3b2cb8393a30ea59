import apiCall from './api-call.js';
import companyEnrichment from './company-enrichment.js';
import peopleEnrichment from './people-enrichment.js';
import peopleSearch from './people-search.js';

export const anzDataSteps = [peopleEnrichment, peopleSearch, companyEnrichment, apiCall];
