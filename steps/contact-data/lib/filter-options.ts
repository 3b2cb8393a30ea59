import { fixedOptions, wordOptions } from '../../../src/kit/index.js';

/**
 * The closed lists behind the search filters: the provider's industry names
 * and the countries its locations name, offered without a request. A filter
 * matches part of the value, so a choice narrows as typed text would.
 */
export const industryOptions = wordOptions([
  'Aviation',
  'Biotechnology',
  'Construction',
  'Consumer Goods',
  'Education',
  'Energy',
  'Financial Services',
  'Healthcare',
  'Hospitality',
  'Industrial Automation',
  'Insurance',
  'Legal Services',
  'Logistics',
  'Manufacturing',
  'Media',
  'Non-profit',
  'Real Estate',
  'Retail',
  'Software',
  'Telecommunications',
  'Wholesale',
]);

const COUNTRIES = [
  ['Australia', 'AU'],
  ['Brazil', 'BR'],
  ['Canada', 'CA'],
  ['France', 'FR'],
  ['Germany', 'DE'],
  ['India', 'IN'],
  ['Ireland', 'IE'],
  ['Japan', 'JP'],
  ['Mexico', 'MX'],
  ['Netherlands', 'NL'],
  ['New Zealand', 'NZ'],
  ['Singapore', 'SG'],
  ['Spain', 'ES'],
  ['Sweden', 'SE'],
  ['United Kingdom', 'GB'],
  ['United States', 'US'],
] as const;

/** Countries for the location filter (which also takes a city or state as typed text). */
export const countryOptions = fixedOptions(
  COUNTRIES.map(([name, code]) => ({ value: name, label: name, description: code })),
);
