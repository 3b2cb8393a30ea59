import apiCall from './api-call.js';
import enrichCompany from './enrich-company.js';
import enrichPerson from './enrich-person.js';
import searchPeople from './search-people.js';

export const anzDataSteps = [enrichPerson, searchPeople, enrichCompany, apiCall];
