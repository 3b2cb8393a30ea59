import apiCall from './api-call.js';
import enrichCompanies from './enrich-companies.js';
import enrichContacts from './enrich-contacts.js';
import findCompany from './find-company.js';
import findContact from './find-contact.js';
import searchCompanies from './search-companies.js';
import searchContacts from './search-contacts.js';

export const contactDataSteps = [
  enrichContacts,
  findContact,
  searchContacts,
  enrichCompanies,
  findCompany,
  searchCompanies,
  apiCall,
];
